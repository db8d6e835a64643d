/**
 * Turns a go2rtc-style ffmpeg source into ffmpeg arguments:
 * `ffmpeg:<input>#video=h264#audio=opus#width=640#rotate=90`.
 * `<input>` is a stream of this relay, a URL, a file, or `virtual?video=testsrc&size=720`.
 */
export interface FfmpegSource {
  input: string;
  video: string[];
  audio: string[];
  width?: number;
  height?: number;
  rotate?: number;
  /** `#input=file`: a file played once (a clip for a camera's speaker), not looped. */
  once?: boolean;
}

export class FfmpegSourceError extends Error {
  override name = 'FfmpegSourceError';
}

const VIDEO_ENCODERS: Record<string, string[]> = {
  copy: ['-c:v', 'copy'],
  h264: ['-c:v', 'libx264', '-preset', 'superfast', '-tune', 'zerolatency', '-pix_fmt', 'yuv420p', '-profile:v', 'high', '-g', '50', '-bf', '0'],
  h265: ['-c:v', 'libx265', '-preset', 'superfast', '-tune', 'zerolatency', '-pix_fmt', 'yuv420p', '-g', '50', '-x265-params', 'log-level=error:bframes=0'],
  // RTP JPEG (RFC 2435) carries no Huffman tables, so the receiver assumes the standard ones.
  mjpeg: ['-c:v', 'mjpeg', '-pix_fmt', 'yuvj420p', '-q:v', '5', '-huffman', 'default'],
};

const AUDIO_ENCODERS: Record<string, string[]> = {
  copy: ['-c:a', 'copy'],
  aac: ['-c:a', 'aac', '-ar', '48000', '-b:a', '96k'],
  opus: ['-c:a', 'libopus', '-application', 'lowdelay', '-ar', '48000', '-ac', '2', '-b:a', '64k'],
  pcma: ['-c:a', 'pcm_alaw', '-ar', '8000', '-ac', '1'],
  pcmu: ['-c:a', 'pcm_mulaw', '-ar', '8000', '-ac', '1'],
};

const SIZES: Record<string, string> = { '360': '640x360', '480': '854x480', '720': '1280x720', '1080': '1920x1080', '4k': '3840x2160' };

export function parseFfmpegSource(source: string): FfmpegSource {
  const body = source.replace(/^ffmpeg:/, '');
  const [input = '', ...params] = body.split('#');
  if (input.trim() === '') throw new FfmpegSourceError('ffmpeg: the source needs an input, e.g. ffmpeg:camera1#video=h264');
  const parsed: FfmpegSource = { input, video: [], audio: [] };
  for (const param of params) {
    const [key = '', value = ''] = param.split('=');
    switch (key) {
      case 'video':
        if (!VIDEO_ENCODERS[value]) throw new FfmpegSourceError(`ffmpeg: video=${value} is not supported (use ${Object.keys(VIDEO_ENCODERS).join(', ')})`);
        parsed.video.push(value);
        break;
      case 'audio':
        if (!AUDIO_ENCODERS[value]) throw new FfmpegSourceError(`ffmpeg: audio=${value} is not supported (use ${Object.keys(AUDIO_ENCODERS).join(', ')})`);
        parsed.audio.push(value);
        break;
      case 'width':
      case 'height':
      case 'rotate': {
        const n = Number(value);
        if (!Number.isInteger(n) || n < 0 || n > 8192) throw new FfmpegSourceError(`ffmpeg: ${key}=${value} must be a whole number`);
        parsed[key] = n;
        break;
      }
      case 'input':
        if (value !== 'file') throw new FfmpegSourceError(`ffmpeg: input=${value} is not supported (use input=file to play a file once)`);
        parsed.once = true;
        break;
      default:
        throw new FfmpegSourceError(`ffmpeg: unknown parameter #${key}`);
    }
  }
  return parsed;
}

export interface InputContext {
  /** rtsp://127.0.0.1:<port>/<name> for a stream of this relay, undefined otherwise. */
  localStream(name: string): string | undefined;
}

/** Inputs ffmpeg reads over the network; anything else it opens on this machine (a path, file:, concat:, ...). */
const NETWORK_INPUT = /^(rtsps?|rtmps?|https?|srt|udp|tcp|rtp):\/\//i;

/**
 * True when ffmpeg would read `input` from this machine's disk or devices: not a stream of the
 * relay, not a test pattern, not a network URL. Such inputs come from the config file only.
 */
export function readsLocalFiles(input: string, isStream: (name: string) => boolean): boolean {
  return !(input === 'virtual' || input.startsWith('virtual?') || isStream(input) || NETWORK_INPUT.test(input));
}

function inputArgs(input: string, context: InputContext, once = false): string[] {
  if (input.startsWith('virtual?') || input === 'virtual') {
    const query = new URLSearchParams(input.slice('virtual?'.length));
    const pattern = query.get('video') || 'testsrc';
    if (!/^(testsrc2?|smptebars|smptehdbars|rgbtestsrc|yuvtestsrc|mandelbrot|life)$/.test(pattern)) {
      throw new FfmpegSourceError(`ffmpeg: virtual video=${pattern} is not a test pattern ffmpeg knows`);
    }
    const size = SIZES[(query.get('size') ?? '720').toLowerCase()] ?? query.get('size') ?? '1280x720';
    if (!/^\d{2,5}x\d{2,5}$/.test(size)) throw new FfmpegSourceError(`ffmpeg: virtual size=${size} is not WIDTHxHEIGHT`);
    const fps = Number(query.get('fps') ?? '25');
    const args = ['-re', '-fflags', 'nobuffer', '-f', 'lavfi', '-i', `${pattern}=size=${size}:rate=${fps}`];
    if (query.has('audio')) args.push('-f', 'lavfi', '-i', 'sine=frequency=1000:sample_rate=48000');
    return args;
  }
  // A clip played once (#input=file, a chime for a camera's speaker), from a file or a URL: in real time.
  if (once) return ['-re', '-i', context.localStream(input) ?? input];
  // Live inputs: no probing buffer, so the picture starts at once.
  const local = context.localStream(input);
  if (local) return ['-fflags', 'nobuffer', '-rtsp_transport', 'tcp', '-i', local];
  if (/^rtsps?:\/\//i.test(input)) return ['-fflags', 'nobuffer', '-rtsp_transport', 'tcp', '-i', input];
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(input)) return ['-fflags', 'nobuffer', '-i', input];
  // A file: played in real time, looped as a camera would send it, or once for #input=file.
  // (No `-fflags nobuffer` here: with it ffmpeg ignores -re for some files and sends at once.)
  return ['-re', '-stream_loop', '-1', '-i', input];
}

/** Full ffmpeg arguments publishing the source to `output` over RTSP. */
export function ffmpegArgs(source: FfmpegSource, context: InputContext, output: string): string[] {
  const args = ['-hide_banner', '-loglevel', 'error', ...inputArgs(source.input, context, source.once)];
  const video = source.video.length > 0 ? source.video : source.audio.length > 0 ? [] : ['copy'];
  const audio = source.audio.length > 0 ? source.audio : source.video.length > 0 ? [] : ['copy'];
  if (video.length > 0) {
    args.push('-map', '0:v:0?', ...VIDEO_ENCODERS[video[0]!]!);
    const filters: string[] = [];
    if (source.width || source.height) filters.push(`scale=${source.width ?? -2}:${source.height ?? -2}`);
    if (source.rotate === 90) filters.push('transpose=1');
    else if (source.rotate === 180) filters.push('transpose=1,transpose=1');
    else if (source.rotate === 270) filters.push('transpose=2');
    if (filters.length > 0) {
      if (video[0] === 'copy') throw new FfmpegSourceError('ffmpeg: width, height and rotate need a video codec, e.g. #video=h264');
      args.push('-vf', filters.join(','));
    }
  } else {
    args.push('-vn');
  }
  if (audio.length > 0) {
    const virtualAudio = source.input.startsWith('virtual') && new URLSearchParams(source.input.slice(8)).has('audio');
    args.push('-map', virtualAudio ? '1:a:0' : '0:a:0?', ...AUDIO_ENCODERS[audio[0]!]!);
  } else {
    args.push('-an');
  }
  args.push('-f', 'rtsp', '-rtsp_transport', 'tcp', output);
  return args;
}
