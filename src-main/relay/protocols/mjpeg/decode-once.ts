import { spawn } from 'node:child_process';
import type { Codec, MediaFrame } from '../../core/media';
import type { TaskRegistry } from '../../core/task-registry';
import { createAnnexBFeed } from './annexb-feed';
import { createJpegSplitter } from './jpeg-splitter';

export interface DecodeOnceOptions {
  codec: Codec;
  keyframe: MediaFrame;
  tasks: TaskRegistry;
  description: string;
  quality: number;
  timeoutMs: number;
  ffmpegBinary?: string;
}

/**
 * One keyframe → one JPEG with an ffmpeg of its own that sees the end of its input: the end
 * makes the decoder give up every picture it holds, so this works for streams whose decoder
 * keeps pictures back for reordering (B-frames declared in the SPS), where a warm decoder would
 * wait for frames that never come.
 */
export function decodeKeyframeOnce(options: DecodeOnceOptions): Promise<Uint8Array> {
  const feed = createAnnexBFeed(options.codec);
  return new Promise((resolve, reject) => {
    const args = [
      '-hide_banner',
      '-loglevel',
      'error',
      '-probesize',
      '32',
      '-analyzeduration',
      '0',
      '-f',
      feed.codec === 'H264' ? 'h264' : 'hevc',
      '-i',
      'pipe:0',
      '-map',
      '0:v:0',
      '-frames:v',
      '1',
      '-c:v',
      'mjpeg',
      '-pix_fmt',
      'yuvj420p',
      '-q:v',
      String(options.quality),
      '-f',
      'mjpeg',
      'pipe:1',
    ];
    const child = spawn(options.ffmpegBinary ?? 'ffmpeg', args, { stdio: ['pipe', 'pipe', 'pipe'] });
    const untrack = options.tasks.add('child', `${options.description} (ffmpeg pid ${child.pid ?? '?'})`);
    let picture: Uint8Array | undefined;
    let stderr = '';
    const splitter = createJpegSplitter((jpeg) => (picture ??= jpeg));
    child.stdout.on('data', (chunk: Buffer) => splitter.push(chunk));
    child.stderr.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-2000)));
    child.stdin.on('error', () => undefined);
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs);
    const done = (error?: Error) => {
      clearTimeout(timer);
      untrack();
      if (picture) resolve(picture);
      else reject(error ?? new Error(`ffmpeg gave no picture: ${stderr.trim().split('\n').pop() ?? ''}`));
    };
    child.once('error', (error) => done(new Error(`ffmpeg could not start: ${error.message}`)));
    child.once('close', () => done());
    child.stdin.end(feed.encode(options.keyframe.data, true));
  });
}
