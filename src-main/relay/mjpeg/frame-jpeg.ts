import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpError } from '../../platform/http/http-error';
import type { RouteRequest } from '../../platform/http/router';
import type { Codec, MediaFrame } from '../core/media';
import { attachFrameOutput } from '../frames/attach-output';
import { transformJpeg } from './image-transform';
import type { SnapshotCache } from './snapshot-cache';
import type { SnapshotDecoders } from './snapshot-decoders';
import { parseSnapshotParams } from './snapshot-params';
import { PICTURE_REQUEST, type MjpegStreamDeps } from './stream-mjpeg';

export interface SnapshotDeps extends MjpegStreamDeps {
  decoders: SnapshotDecoders;
  cache: SnapshotCache;
  /** How long to wait for a picture from a source that has none cached (default 10 s). */
  pictureTimeoutMs?: number;
}

/** A running MJPEG transcoder's picture at most this old is as good as a fresh one. */
const LIVE_PICTURE_MS = 500;

/**
 * GET /api/frame.jpeg?src=: one picture. H.264/H.265 come from the stream's cached keyframe
 * (the GOP cache hands it over at once) through the stream's warm decoder, or from the MJPEG
 * transcoder when viewers keep one running; JPEG sources give their next picture as is.
 * `width|w`, `height|h`, `rotate` resize and turn it; `cache=5s` may answer from memory.
 */
export async function serveSnapshot(deps: SnapshotDeps, { req, res, url }: RouteRequest): Promise<void> {
  const params = parseSnapshotParams(url.searchParams);
  const src = url.searchParams.get('src')?.trim() ?? '';
  const named = src !== '' && !!deps.streams.get(src);
  let jpeg = named && params.cacheMs > 0 ? deps.cache.get(src, params.cacheMs) : undefined;
  if (!jpeg && named) {
    const live = deps.transcoders.latest(src);
    if (live && Date.now() - live.at <= LIVE_PICTURE_MS) jpeg = live.jpeg;
  }
  if (!jpeg) {
    jpeg = await takePicture(deps, src, req, res);
    deps.cache.set(src, jpeg);
  }
  const body = await transformJpeg(jpeg, params);
  if (res.destroyed) return;
  res.writeHead(200, { 'Content-Type': 'image/jpeg', 'Content-Length': body.length, 'Cache-Control': 'no-cache', Pragma: 'no-cache' });
  res.end(body);
}

async function takePicture(deps: SnapshotDeps, src: string, req: IncomingMessage, res: ServerResponse): Promise<Uint8Array> {
  let settle!: { resolve(picture: { codec: Codec; frame: MediaFrame }): void; reject(error: Error): void };
  const first = new Promise<{ codec: Codec; frame: MediaFrame }>((resolve, reject) => (settle = { resolve, reject }));
  const output = await attachFrameOutput(deps, {
    src,
    format: 'jpeg',
    request: req,
    requests: PICTURE_REQUEST,
    onFrame: (track, frame) => {
      if (frame.keyframe) settle.resolve({ codec: track.codec, frame });
    },
    onClose: (reason) => settle.reject(new HttpError(503, `stream ${src} ended before it gave a picture: ${reason}`)),
  });
  const timeoutMs = deps.pictureTimeoutMs ?? 10_000;
  const timer = setTimeout(() => settle.reject(new HttpError(503, `stream ${src} gave no picture within ${timeoutMs / 1000} s`)), timeoutMs);
  const left = () => settle.reject(new HttpError(503, 'the client left before the picture came'));
  res.once('close', left);
  let picture: { codec: Codec; frame: MediaFrame };
  try {
    picture = await first;
  } finally {
    clearTimeout(timer);
    res.off('close', left);
    output.release();
  }
  if (picture.codec.name === 'JPEG') return picture.frame.data;
  try {
    return await deps.decoders.decode(src, picture.codec, picture.frame);
  } catch (error) {
    throw new HttpError(500, `could not decode a picture of ${src}: ${(error as Error).message}`);
  }
}
