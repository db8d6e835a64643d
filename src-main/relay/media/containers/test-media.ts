import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { MediaFrame } from '../../core/media';
import type { DemuxedTrack, Demuxer, DemuxSink } from './demuxer';

const exec = promisify(execFile);

/** A test clip made by ffmpeg: 320x240 25 fps H.264 (or H.265) with 44.1 kHz AAC, in `format`. */
export async function encodeClip(format: 'flv' | 'mpegts', seconds: number, video: 'libx264' | 'libx265' = 'libx264'): Promise<Buffer> {
  const { stdout } = await exec(
    'ffmpeg',
    [
      '-hide_banner',
      '-loglevel',
      'error',
      '-f',
      'lavfi',
      '-i',
      `testsrc=size=320x240:rate=25:duration=${seconds}`,
      '-f',
      'lavfi',
      '-i',
      `sine=frequency=440:sample_rate=44100:duration=${seconds}`,
      '-c:v',
      video,
      '-preset',
      'ultrafast',
      '-g',
      '25',
      '-pix_fmt',
      'yuv420p',
      ...(video === 'libx265' ? ['-x265-params', 'log-level=error'] : []),
      '-c:a',
      'aac',
      '-b:a',
      '64k',
      '-f',
      format,
      'pipe:1',
    ],
    { encoding: 'buffer', maxBuffer: 64 * 1024 * 1024 },
  );
  return stdout;
}

/** Feeds `bytes` to a demuxer in chunks of `chunk` bytes and collects what comes out. */
export function demuxAll(create: (sink: DemuxSink) => Demuxer, bytes: Uint8Array, chunk = 1000) {
  const out = { tracks: [] as DemuxedTrack[], frames: [] as Array<{ track: number; frame: MediaFrame }> };
  const demuxer = create({ tracks: (t) => void out.tracks.push(...t), frame: (track, frame) => void out.frames.push({ track, frame }) });
  for (let at = 0; at < bytes.length; at += chunk) demuxer.push(bytes.subarray(at, at + chunk));
  demuxer.end();
  return out;
}
