import { FfmpegSourceError } from './ffmpeg-source-error';

// `ffmpeg:device?video=/dev/video0&input_format=mjpeg&video_size=1280x720` and
// `ffmpeg:device?audio=hw:1&channels=1&sample_rate=16000`: a capture device of this machine, as
// go2rtc writes them (and lists them at /api/ffmpeg/devices). Linux: video4linux2 and ALSA.

const VIDEO_OPTIONS = ['input_format', 'video_size', 'framerate', 'pixel_format', 'use_libv4l2'] as const;
const AUDIO_OPTIONS = ['channels', 'sample_rate'] as const;
/** Device names and option values: paths, ALSA names (`hw:1,0`, `plughw:CARD=C920`), sizes; never something ffmpeg could read as an option. */
const SAFE_VALUE = /^[\w/.:,=x-]+$/;

function option(name: string, value: string): string[] {
  if (!SAFE_VALUE.test(value) || value.startsWith('-'))
    throw new FfmpegSourceError(`ffmpeg: device ${name}=${value} is not a device setting`);
  return [`-${name}`, value];
}

export const isDeviceInput = (input: string) => input === 'device' || input.startsWith('device?');

/** ffmpeg input arguments for a capture device. */
export function deviceInputArgs(input: string): string[] {
  const query = new URLSearchParams(input.slice('device?'.length));
  const video = query.get('video');
  const audio = query.get('audio');
  if (video) {
    const args = ['-f', 'v4l2'];
    // go2rtc's `resolution=` is ffmpeg's video_size.
    if (query.get('resolution')) args.push(...option('video_size', query.get('resolution')!));
    for (const name of VIDEO_OPTIONS) if (query.get(name)) args.push(...option(name, query.get(name)!));
    return [...args, ...option('i', /^\d+$/.test(video) ? `/dev/video${video}` : video)];
  }
  if (audio) {
    const args = ['-f', 'alsa'];
    for (const name of AUDIO_OPTIONS) if (query.get(name)) args.push(...option(name, query.get(name)!));
    return [...args, ...option('i', audio)];
  }
  throw new FfmpegSourceError('ffmpeg: device needs video= or audio=, e.g. ffmpeg:device?video=/dev/video0 (see /api/ffmpeg/devices)');
}
