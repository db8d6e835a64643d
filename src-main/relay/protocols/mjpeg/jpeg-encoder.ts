import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import type { Codec, MediaFrame } from '../../core/media';
import type { TaskRegistry } from '../../core/task-registry';
import { parameterSetKey } from '../../media/frames/keyframe-parameter-sets';
import { createAnnexBFeed } from './annexb-feed';
import { createJpegSplitter } from './jpeg-splitter';

export interface JpegEncoderOptions {
  /** H264 or H265, with the SDP fmtp (its parameter sets go before keyframes that lack them). */
  codec: Codec;
  tasks: TaskRegistry;
  /** What `/api/stack` shows for the child, e.g. `mjpeg transcoder for door`. */
  description: string;
  /** ffmpeg's `-q:v` for the pictures: 2 (best) to 31. */
  quality: number;
  ffmpegBinary?: string;
  onJpeg(jpeg: Uint8Array): void;
  /** The child ended on its own (ffmpeg failed); the encoder is closed. */
  onFailure(error: Error): void;
}

export interface JpegEncoder {
  /** Hands a frame to ffmpeg; false when it is dropped (no keyframe yet, or ffmpeg is behind). */
  write(frame: MediaFrame): boolean;
  /** Frames dropped because ffmpeg could not keep up. */
  readonly dropped: number;
  readonly running: boolean;
  close(): void;
}

/** How much may wait in ffmpeg's stdin before frames are dropped until the next keyframe. */
const MAX_BACKLOG = 4 * 1024 * 1024;

/**
 * One ffmpeg that decodes H.264/H.265 from its stdin (Annex B) and writes a JPEG per frame to
 * its stdout, as fast as frames come (no probing, no frame threading: a picture leaves as soon
 * as its frame is in). The child starts on the first keyframe and starts over when a keyframe
 * brings other parameter sets (the camera changed its resolution), as ffmpeg would otherwise
 * scale new pictures to the old size. It is a `child` task in `/api/stack` while it runs.
 */
export function createJpegEncoder(options: JpegEncoderOptions): JpegEncoder {
  const feed = createAnnexBFeed(options.codec);
  let child: ChildProcessByStdio<Writable, Readable, Readable> | undefined;
  let parameterSets: string | undefined;
  let waitingForKeyframe = true;
  let closed = false;
  let dropped = 0;

  const stopChild = () => {
    if (!child) return;
    const old = child;
    child = undefined;
    old.stdin.destroy();
    if (old.exitCode === null && old.signalCode === null) {
      old.kill('SIGTERM');
      setTimeout(() => old.kill('SIGKILL'), 2_000).unref();
    }
  };

  const startChild = () => {
    const args = [
      '-hide_banner',
      '-loglevel',
      'error',
      '-probesize',
      '32',
      '-analyzeduration',
      '0',
      '-flags',
      'low_delay',
      '-threads',
      '1',
      '-f',
      feed.codec === 'H264' ? 'h264' : 'hevc',
      '-i',
      'pipe:0',
      '-map',
      '0:v:0',
      '-an',
      '-sn',
      '-dn',
      '-fps_mode',
      'passthrough',
      '-c:v',
      'mjpeg',
      '-pix_fmt',
      'yuvj420p',
      '-q:v',
      String(options.quality),
      '-threads',
      '1',
      '-flush_packets',
      '1',
      '-f',
      'mjpeg',
      'pipe:1',
    ];
    const started = spawn(options.ffmpegBinary ?? 'ffmpeg', args, { stdio: ['pipe', 'pipe', 'pipe'] });
    child = started;
    const untrack = options.tasks.add('child', `${options.description} (ffmpeg pid ${started.pid ?? '?'})`);
    let stderr = '';
    started.stderr.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-2000)));
    const splitter = createJpegSplitter((jpeg) => {
      if (child === started) options.onJpeg(jpeg);
    });
    started.stdout.on('data', (chunk: Buffer) => splitter.push(chunk));
    started.stdin.on('error', () => undefined); // EPIPE when ffmpeg dies: 'exit' tells why
    const ended = (error?: Error) => {
      untrack();
      if (child !== started || closed) return; // stopped on purpose
      child = undefined;
      closed = true;
      options.onFailure(error ?? new Error('ffmpeg ended'));
    };
    started.once('error', (error) => ended(new Error(`ffmpeg could not start: ${error.message}`)));
    started.once('exit', (code, signal) => ended(new Error(`ffmpeg exited (${signal ?? code}): ${stderr.trim().split('\n').pop() ?? ''}`)));
  };

  return {
    get dropped() {
      return dropped;
    },
    get running() {
      return !!child;
    },
    write(frame) {
      if (closed) return false;
      if (frame.keyframe) {
        const sets = parameterSetKey(feed.codec, frame.data);
        if (child && sets && parameterSets && sets !== parameterSets) stopChild();
        if (sets) parameterSets = sets;
        if (!child) startChild();
        waitingForKeyframe = false;
      }
      if (waitingForKeyframe || !child) return false;
      if (child.stdin.writableLength > MAX_BACKLOG) {
        waitingForKeyframe = true; // what follows needs the frames we drop: wait for a fresh start
        dropped++;
        return false;
      }
      child.stdin.write(feed.encode(frame.data, frame.keyframe));
      return true;
    },
    close() {
      closed = true;
      stopChild();
    },
  };
}
