import { deviceInputArgs, isDeviceInput } from './device-input';
import { FfmpegSourceError } from './ffmpeg-source-error';
import { encoderFor, HARDWARE_ENGINES, hardwareInput, hardwareFilters, type HardwareEngine } from './hardware';

/**
 * Turns a go2rtc-style ffmpeg source into ffmpeg arguments:
 * `ffmpeg:<input>#video=h264#audio=copy#audio=opus#width=640#rotate=90#hardware#raw=-crf 23`.
 * `<input>` is a stream of this relay, a URL, a file, `virtual?video=testsrc&size=720`, or a
 * capture device (`device?video=/dev/video0`, `device?audio=hw:1`).
 */
export interface FfmpegSource {
  input: string;
  /** One output track per entry, in order (`#audio=copy#audio=opus`: the original and an Opus copy). */
  video: string[];
  audio: string[];
  width?: number;
  height?: number;
  rotate?: number;
  /** `#input=file`: a file played once (a clip for a camera's speaker), not looped. */
  once?: boolean;
  /** `#query=log_level=debug`: added to the relay's own RTSP URL when the input is one of its streams. */
  query: string[];
  /** `#raw=-crf 23`: ffmpeg arguments placed after the codecs, as written (config file only). */
  raw: string[];
  /** `#hardware` (the first engine that works here) or `#hardware=vaapi`: encode video on a GPU. */
  hardware?: HardwareEngine | 'auto';
}

export { FfmpegSourceError };

/** Encoder options as [option, value] pairs; the stream specifier is added per output track. */
type EncoderOptions = ReadonlyArray<readonly [string, string]>;

const VIDEO_ENCODERS: Record<string, EncoderOptions> = {
  copy: [['c', 'copy']],
  h264: [
    ['c', 'libx264'],
    ['preset', 'superfast'],
    ['tune', 'zerolatency'],
    ['pix_fmt', 'yuv420p'],
    ['profile', 'high'],
    ['g', '50'],
    ['bf', '0'],
  ],
  h265: [
    ['c', 'libx265'],
    ['preset', 'superfast'],
    ['tune', 'zerolatency'],
    ['pix_fmt', 'yuv420p'],
    ['g', '50'],
    ['x265-params', 'log-level=error:bframes=0'],
  ],
  // RTP JPEG (RFC 2435) carries no Huffman tables, so the receiver assumes the standard ones.
  mjpeg: [
    ['c', 'mjpeg'],
    ['pix_fmt', 'yuvj420p'],
    ['q', '5'],
    ['huffman', 'default'],
  ],
};

const AUDIO_ENCODERS: Record<string, EncoderOptions> = {
  copy: [['c', 'copy']],
  aac: [
    ['c', 'aac'],
    ['ar', '48000'],
    ['b', '96k'],
  ],
  opus: [
    ['c', 'libopus'],
    ['application', 'lowdelay'],
    ['ar', '48000'],
    ['ac', '2'],
    ['b', '64k'],
  ],
  pcma: [
    ['c', 'pcm_alaw'],
    ['ar', '8000'],
    ['ac', '1'],
  ],
  pcmu: [
    ['c', 'pcm_mulaw'],
    ['ar', '8000'],
    ['ac', '1'],
  ],
};

const SIZES: Record<string, string> = { '360': '640x360', '480': '854x480', '720': '1280x720', '1080': '1920x1080', '4k': '3840x2160' };

/** What `#query=` may hold: query parameters for the relay's RTSP URL, nothing that could be read as another argument. */
const QUERY_PATTERN = /^[\w.,-]+(=[\w.,:/-]*)?(&[\w.,-]+(=[\w.,:/-]*)?)*$/;

export function parseFfmpegSource(source: string): FfmpegSource {
  const body = source.replace(/^ffmpeg:/, '');
  const [input = '', ...params] = body.split('#');
  if (input.trim() === '') throw new FfmpegSourceError('ffmpeg: the source needs an input, e.g. ffmpeg:camera1#video=h264');
  const parsed: FfmpegSource = { input, video: [], audio: [], query: [], raw: [] };
  for (const param of params) {
    const at = param.indexOf('=');
    const key = at < 0 ? param : param.slice(0, at);
    const value = at < 0 ? '' : param.slice(at + 1);
    switch (key) {
      case 'video':
        if (!VIDEO_ENCODERS[value])
          throw new FfmpegSourceError(`ffmpeg: video=${value} is not supported (use ${Object.keys(VIDEO_ENCODERS).join(', ')})`);
        parsed.video.push(value);
        break;
      case 'audio':
        if (!AUDIO_ENCODERS[value])
          throw new FfmpegSourceError(`ffmpeg: audio=${value} is not supported (use ${Object.keys(AUDIO_ENCODERS).join(', ')})`);
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
      case 'query':
        if (!QUERY_PATTERN.test(value))
          throw new FfmpegSourceError(`ffmpeg: query=${value} is not key=value pairs joined by & (e.g. #query=log_level=debug)`);
        parsed.query.push(value);
        break;
      case 'raw':
        if (value.trim() === '') throw new FfmpegSourceError('ffmpeg: raw= needs ffmpeg arguments, e.g. #raw=-crf 23');
        parsed.raw.push(value);
        break;
      case 'hardware':
        if (value !== '' && !(HARDWARE_ENGINES as readonly string[]).includes(value)) {
          throw new FfmpegSourceError(
            `ffmpeg: hardware=${value} is not known (use #hardware to pick the first that works, or ${HARDWARE_ENGINES.join(', ')})`,
          );
        }
        parsed.hardware = value === '' ? 'auto' : (value as HardwareEngine);
        break;
      default:
        throw new FfmpegSourceError(`ffmpeg: unknown parameter #${key}`);
    }
  }
  return parsed;
}

export interface InputContext {
  /**
   * rtsp://127.0.0.1:<port>/<name> for a stream of this relay, undefined otherwise. For the
   * stream this source feeds itself, the URL names the source (`source=`) so the relay serves
   * ffmpeg from the stream's other sources, never from this one.
   */
  localStream(name: string): string | undefined;
  /** The engine `#hardware` resolved to on this machine (undefined: encode in software). */
  hardware?: HardwareEngine;
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

/** A stream of the relay, asked for the kinds of media the outputs need, plus `#query=` (as go2rtc). */
function localStreamUrl(base: string, source: FfmpegSource): string {
  const kinds =
    source.video.length > 0 && source.audio.length === 0
      ? 'video'
      : source.audio.length > 0 && source.video.length === 0
        ? 'audio'
        : 'video&audio';
  return `${base}${base.includes('?') ? '&' : '?'}${[kinds, ...source.query].join('&')}`;
}

function inputArgs(source: FfmpegSource, context: InputContext): string[] {
  const { input } = source;
  if (input.startsWith('virtual?') || input === 'virtual') {
    const query = new URLSearchParams(input.slice('virtual?'.length));
    const pattern = query.get('video') || 'testsrc';
    if (!/^(testsrc2?|smptebars|smptehdbars|rgbtestsrc|yuvtestsrc|mandelbrot|life)$/.test(pattern)) {
      throw new FfmpegSourceError(`ffmpeg: virtual video=${pattern} is not a test pattern ffmpeg knows`);
    }
    const size = SIZES[(query.get('size') ?? '720').toLowerCase()] ?? query.get('size') ?? '1280x720';
    if (!/^\d{2,5}x\d{2,5}$/.test(size)) throw new FfmpegSourceError(`ffmpeg: virtual size=${size} is not WIDTHxHEIGHT`);
    const fps = Number(query.get('fps') ?? '25');
    // -re paces only the input it stands before: every generated input gets its own, or ffmpeg
    // makes the audio as fast as it can (megabytes a second into a camera's speaker).
    const args = ['-re', '-fflags', 'nobuffer', '-f', 'lavfi', '-i', `${pattern}=size=${size}:rate=${fps}`];
    if (query.has('audio')) args.push('-re', '-f', 'lavfi', '-i', 'sine=frequency=1000:sample_rate=48000');
    return args;
  }
  if (isDeviceInput(input)) return deviceInputArgs(input);
  const local = context.localStream(input);
  // A clip played once (#input=file, a chime for a camera's speaker), from a file or a URL: in real time.
  if (source.once) return ['-re', '-i', local ?? input];
  // Live inputs: no probing buffer, so the picture starts at once.
  if (local) return ['-fflags', 'nobuffer', '-rtsp_transport', 'tcp', '-i', localStreamUrl(local, source)];
  if (/^rtsps?:\/\//i.test(input)) return ['-fflags', 'nobuffer', '-rtsp_transport', 'tcp', '-i', input];
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(input)) return ['-fflags', 'nobuffer', '-i', input];
  // A file: played in real time, looped as a camera would send it.
  // (No `-fflags nobuffer` here: with it ffmpeg ignores -re for some files and sends at once.)
  return ['-re', '-stream_loop', '-1', '-i', input];
}

/** `-c:v:1 libx264 -preset:v:1 superfast ...`: options of one output track. */
function trackOptions(kind: 'v' | 'a', index: number, options: EncoderOptions): string[] {
  return options.flatMap(([option, value]) => [`-${option}:${kind}:${index}`, value]);
}

/** Splits `#raw=` text into arguments as a shell would; quotes group words (`-metadata title="front door"`). */
function splitRaw(raw: string): string[] {
  return [...raw.matchAll(/(?:[^\s"']+|"[^"]*"|'[^']*')+/g)].map((m) => m[0].replace(/"([^"]*)"|'([^']*)'/g, '$1$2'));
}

/** Full ffmpeg arguments publishing the source to `output` over RTSP. */
export function ffmpegArgs(source: FfmpegSource, context: InputContext, output: string): string[] {
  const video = source.video.length > 0 ? source.video : source.audio.length > 0 ? [] : ['copy'];
  const audio = source.audio.length > 0 ? source.audio : source.video.length > 0 ? [] : ['copy'];
  const engine = source.hardware && video.some((codec) => encoderFor(context.hardware, codec)) ? context.hardware : undefined;

  const filters: string[] = [];
  if (source.width || source.height) filters.push(`scale=${source.width ?? -2}:${source.height ?? -2}`);
  if (source.rotate === 90) filters.push('transpose=1');
  else if (source.rotate === 180) filters.push('transpose=1,transpose=1');
  else if (source.rotate === 270) filters.push('transpose=2');
  if (filters.length > 0 && !video.some((codec) => codec !== 'copy')) {
    throw new FfmpegSourceError('ffmpeg: width, height and rotate need a video codec, e.g. #video=h264');
  }

  const args = ['-hide_banner', '-loglevel', 'error', ...(engine ? hardwareInput(engine, filters) : []), ...inputArgs(source, context)];
  video.forEach((codec, index) => {
    args.push('-map', '0:v:0?', ...trackOptions('v', index, encoderFor(engine, codec) ?? VIDEO_ENCODERS[codec]!));
    if (codec !== 'copy' && filters.length > 0)
      args.push(`-filter:v:${index}`, (engine ? hardwareFilters(engine, filters) : filters).join(','));
  });
  if (video.length === 0) args.push('-vn');
  const virtualAudio = source.input.startsWith('virtual') && new URLSearchParams(source.input.slice(8)).has('audio');
  audio.forEach((codec, index) =>
    args.push('-map', virtualAudio ? '1:a:0' : '0:a:0?', ...trackOptions('a', index, AUDIO_ENCODERS[codec]!)),
  );
  if (audio.length === 0) args.push('-an');
  for (const raw of source.raw) args.push(...splitRaw(raw));
  args.push('-f', 'rtsp', '-rtsp_transport', 'tcp', output);
  return args;
}
