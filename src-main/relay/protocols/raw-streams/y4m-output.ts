import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { HttpError } from '@main/platform/http/http-error';
import type { RouteRequest } from '@main/platform/http/router';
import type { MediaFrame } from '../../core/media';
import { attachFrameOutput, type FrameOutput } from '../../media/frames/attach-output';
import type { FrameTrack } from '../../media/frames/frame-consumer';
import { createAnnexBFeed } from '../mjpeg/annexb-feed';
import type { LiveOutputDeps } from './live-output';

const FIRST_FRAME_TIMEOUT_MS = 15_000;
/** Raw pictures are large: past this much unread output the decoder is fed nothing until the next keyframe. */
const MAX_BUFFERED_BYTES = 32 * 1024 * 1024;

export interface Y4mDeps extends LiveOutputDeps {
  ffmpegBinary?: string;
}

/**
 * GET /api/stream.y4m?src=: the stream's video decoded to raw YUV 4:2:0 in YUV4MPEG2, for tools
 * that read raw pictures (an analyzer, `ffplay`, a pipe into an encoder). One ffmpeg decodes for
 * this client, fed the stream's own frames (no second connection to the camera), and stops
 * when the client leaves.
 */
export async function serveY4m(deps: Y4mDeps, { req, res, url }: RouteRequest): Promise<void> {
  const src = url.searchParams.get('src');
  let output: FrameOutput | undefined = undefined;
  let child: ChildProcessWithoutNullStreams | undefined = undefined;
  let feed: ReturnType<typeof createAnnexBFeed> | undefined;
  let video: FrameTrack | undefined = undefined;
  let finished = false;
  let waitingForKeyframe = true;
  let untrack: (() => void) | undefined;
  let settle!: (error?: Error) => void;
  const done = new Promise<void>((resolve, reject) => (settle = (error) => (error ? reject(error) : resolve())));
  void done.catch(() => undefined);
  const timer = setTimeout(
    () => finish(new HttpError(503, `${src}: no keyframe came within ${FIRST_FRAME_TIMEOUT_MS / 1000} s`)),
    FIRST_FRAME_TIMEOUT_MS,
  );

  function finish(error?: Error): void {
    if (finished) return;
    finished = true;
    clearTimeout(timer);
    output?.release();
    child?.kill('SIGKILL');
    untrack?.();
    if (error && !res.headersSent && !res.destroyed) return settle(error);
    if (error) deps.logger.warn('y4m viewer ended', { src, error: error.message });
    if (!res.writableEnded) res.end();
    settle();
  }

  function startDecoder(track: FrameTrack): void {
    feed = createAnnexBFeed(track.codec);
    const format = feed.codec === 'H264' ? 'h264' : 'hevc';
    // Started on a keyframe, so nothing needs probing; the frame rate in the header is the SPS's timing (25 when it has none).
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
      '-f',
      format,
      '-i',
      'pipe:0',
      '-map',
      '0:v:0',
      '-an',
      '-pix_fmt',
      'yuv420p',
      '-f',
      'yuv4mpegpipe',
      'pipe:1',
    ];
    const started = spawn(deps.ffmpegBinary ?? 'ffmpeg', args, { stdio: ['pipe', 'pipe', 'pipe'] });
    child = started;
    untrack = deps.tasks.add('child', `y4m decoder for ${src} (ffmpeg pid ${started.pid ?? '?'})`);
    let stderr = '';
    started.stderr.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-2000)));
    started.stdin.on('error', () => undefined); // EPIPE when ffmpeg dies: 'exit' says why
    started.stdout.on('data', (chunk: Buffer) => {
      if (finished) return;
      if (!res.headersSent) {
        clearTimeout(timer);
        res.writeHead(200, { 'Content-Type': 'video/x-yuv4mpeg', 'Cache-Control': 'no-cache' });
      }
      res.write(chunk);
      output?.consumer.countSent(chunk.length);
    });
    started.on('error', (error) => finish(new HttpError(500, `ffmpeg could not start: ${error.message}`)));
    started.on('exit', (code) => {
      if (!finished)
        finish(
          code === 0 ? undefined : new HttpError(502, `${src}: the decoder stopped (${stderr.trim().split('\n').pop() || `exit ${code}`})`),
        );
    });
  }

  function onFrame(track: FrameTrack, frame: MediaFrame): void {
    if (finished || track !== video) return;
    if (waitingForKeyframe && !frame.keyframe) return;
    if (!child) startDecoder(track);
    // A client that does not read: the decoder skips to the next keyframe instead of piling up pictures.
    if (res.writableLength > MAX_BUFFERED_BYTES) {
      waitingForKeyframe = true;
      return;
    }
    waitingForKeyframe = false;
    child!.stdin.write(feed!.encode(frame.data, frame.keyframe));
  }

  const early: Array<{ track: FrameTrack; frame: MediaFrame }> = [];
  res.on('close', () => finish());
  output = await attachFrameOutput(deps, {
    src,
    format: 'y4m',
    request: req,
    requests: [{ kind: 'video', codecs: ['H264', 'H265'] }],
    onFrame: (track, frame) => (video ? onFrame(track, frame) : early.push({ track, frame })),
    onClose: (reason) => finish(new HttpError(503, `${src}: the stream ended (${reason})`)),
  });
  if (finished) {
    output.release();
    return done;
  }
  video = output.consumer.tracks.find((t) => t.kind === 'video');
  if (!video) {
    finish(new HttpError(400, `${src}: the stream has no H.264 or H.265 video to decode`));
    return done;
  }
  if (req.method === 'HEAD') {
    res.writeHead(200, { 'Content-Type': 'video/x-yuv4mpeg', 'Cache-Control': 'no-cache' });
    finish();
    return done;
  }
  for (const { track, frame } of early.splice(0)) onFrame(track, frame);
  return done;
}
