import type { ServerResponse } from 'node:http';
import { HttpError } from '@main/platform/http/http-error';
import type { RouteRequest } from '@main/platform/http/router';
import type { Logger } from '@main/platform/logger';
import type { MediaFrame } from '../../core/media';
import type { MediaRequest } from '../../core/negotiation';
import { attachFrameOutput, type FrameOutput, type OutputDeps } from '../../media/frames/attach-output';
import type { FrameTrack } from '../../media/frames/frame-consumer';

/** Bytes a client may leave unread before its frames are dropped up to the next keyframe. */
const MAX_BUFFERED_BYTES = 4 * 1024 * 1024;
const FIRST_FRAME_TIMEOUT_MS = 15_000;

/** What one container writes for the tracks it got. */
interface LiveWriter {
  contentType: string;
  /** Bytes at the start of the body (a container header). */
  header?(): Uint8Array | undefined;
  /** A frame's bytes; undefined while it waits (for the first keyframe, say). */
  write(track: FrameTrack, frame: MediaFrame): Uint8Array | undefined;
}

export interface LiveOutputDeps extends OutputDeps {
  logger: Logger;
}

export interface LiveOutputFormat {
  /** Stats name of the output (`mpegts`, `aac`). */
  format: string;
  requests: MediaRequest[];
  /** The writer for the negotiated tracks; throws (→ 400) when it cannot carry them. */
  writer(tracks: readonly FrameTrack[]): LiveWriter;
}

/**
 * GET /api/stream.<ext>?src=: a stream in one container for as long as the client stays. Errors
 * (400/404/503) come before any byte; the body starts with the container's header and the
 * cached keyframe; a client that does not keep up loses frames up to the next keyframe rather
 * than holding the camera back; a client that leaves lets go of the stream at once.
 */
export async function serveLiveOutput(deps: LiveOutputDeps, { req, res, url }: RouteRequest, format: LiveOutputFormat): Promise<void> {
  const src = url.searchParams.get('src');
  let output: FrameOutput | undefined = undefined;
  let writer: LiveWriter | undefined;
  let finished = false;
  let resyncing = false;
  let timer: NodeJS.Timeout | undefined = undefined;
  const early: Array<{ track: FrameTrack; frame: MediaFrame }> = [];
  let settle!: (error?: Error) => void;
  const done = new Promise<void>((resolve, reject) => (settle = (error) => (error ? reject(error) : resolve())));
  void done.catch(() => undefined);

  const finish = (error?: Error): void => {
    if (finished) return;
    finished = true;
    clearTimeout(timer);
    output?.release();
    if (error && !res.headersSent && !res.destroyed) return settle(error);
    if (error) deps.logger.warn(`${format.format} viewer ended`, { src, error: error.message });
    if (!res.writableEnded) res.end();
    settle();
  };

  const send = (response: ServerResponse, bytes: Uint8Array, keyframe: boolean): void => {
    if (!response.headersSent) {
      clearTimeout(timer);
      response.writeHead(200, { 'Content-Type': writer!.contentType, 'Cache-Control': 'no-cache' });
      if (req.method === 'HEAD') return finish();
      const header = writer!.header?.();
      if (header) response.write(header);
    }
    if (resyncing && !keyframe) return;
    resyncing = false;
    if (response.writableLength > MAX_BUFFERED_BYTES) {
      resyncing = true;
      return;
    }
    response.write(bytes);
    output?.consumer.countSent(bytes.length);
  };

  const deliver = (track: FrameTrack, frame: MediaFrame): void => {
    if (finished || !writer) return;
    try {
      const bytes = writer.write(track, frame);
      if (bytes && bytes.length > 0) send(res, bytes, frame.keyframe === true || track.kind === 'audio');
    } catch (error) {
      finish(new HttpError(502, `${src}: ${(error as Error).message}`));
    }
  };

  res.on('close', () => finish());
  output = await attachFrameOutput(deps, {
    src,
    format: format.format,
    request: req,
    requests: format.requests,
    onFrame: (track, frame) => (writer ? deliver(track, frame) : early.push({ track, frame })),
    onClose: (reason) => finish(new HttpError(503, `${src}: the stream ended (${reason})`)),
  });
  if (finished) {
    output.release();
    return done;
  }
  try {
    writer = format.writer(output.consumer.tracks);
  } catch (error) {
    finish(error instanceof HttpError ? error : new HttpError(400, (error as Error).message));
    return done;
  }
  timer = setTimeout(
    () => finish(new HttpError(503, `${src}: nothing to send came within ${FIRST_FRAME_TIMEOUT_MS / 1000} s`)),
    FIRST_FRAME_TIMEOUT_MS,
  );
  for (const { track, frame } of early.splice(0)) deliver(track, frame);
  return done;
}
