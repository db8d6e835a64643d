import { execFile } from 'node:child_process';
import type { DiscoveredSource } from '../discovery/sources-answer';

const LIST_TIMEOUT_MS = 10_000;

/** ffmpeg's output (stdout and stderr together: device listings go to the log); a failed run still says what it found. */
function ffmpegOutput(binary: string, args: string[]): Promise<string> {
  return new Promise((resolve) => {
    execFile(binary, ['-hide_banner', ...args], { timeout: LIST_TIMEOUT_MS, maxBuffer: 1024 * 1024 }, (_error, stdout, stderr) =>
      resolve(`${stdout}${stderr}`),
    );
  });
}

/**
 * `ffmpeg -sources <device>`: "Auto-detected sources for alsa:" then one line per device,
 * `  <name> [<description>] (<media types>)`, `*` in front of the default.
 */
export function parseSourcesListing(text: string): Array<{ name: string; description: string }> {
  return [...text.matchAll(/^\s*\*?\s*(\S+) \[([^\]]*)\]/gm)].map((m) => ({ name: m[1]!, description: m[2]! }));
}

/**
 * `ffmpeg -f v4l2 -list_formats all -i /dev/videoN`: one line per format,
 * `[video4linux2,v4l2 @ 0x...] Compressed:       mjpeg :          Motion-JPEG : 640x360 1280x720`.
 * Each format is a source at its first size; raw ones are encoded to H.264 (as go2rtc lists them).
 */
export function parseV4l2Formats(device: string, text: string): DiscoveredSource[] {
  return [...text.matchAll(/(Raw *|Compressed): +(\S+) : +(.+?) : (.+)$/gm)].map((m) => {
    const sizes = m[4]!.trim();
    const size = sizes.split(/\s+/)[0] ?? '';
    const url = `ffmpeg:device?video=${device}&input_format=${m[2]}${/^\d+x\d+$/.test(size) ? `&video_size=${size}` : ''}`;
    return { name: m[3]!.trim(), info: sizes, url: m[1]!.startsWith('Raw') ? `${url}#video=h264#hardware` : url };
  });
}

/**
 * The cameras and microphones of this machine as ffmpeg sees them (for `GET /api/ffmpeg/devices`):
 * each video4linux2 device with its formats, each ALSA capture device as an Opus source.
 */
export async function listCaptureDevices(binary: string): Promise<DiscoveredSource[]> {
  const [videoListing, audioListing] = await Promise.all([
    ffmpegOutput(binary, ['-sources', 'v4l2']),
    ffmpegOutput(binary, ['-sources', 'alsa']),
  ]);
  const video = await Promise.all(
    parseSourcesListing(videoListing)
      .filter((d) => d.name.startsWith('/dev/'))
      .map(async (d) => parseV4l2Formats(d.name, await ffmpegOutput(binary, ['-f', 'v4l2', '-list_formats', 'all', '-i', d.name]))),
  );
  const audio = parseSourcesListing(audioListing).map((d) => ({
    name: `ALSA ${d.name}`,
    info: d.description || ' ',
    url: `ffmpeg:device?audio=${d.name}&channels=1&sample_rate=16000#audio=opus`,
  }));
  return [...video.flat(), ...audio];
}
