import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpError } from '@main/platform/http/http-error';
import type { RouteRequest } from '@main/platform/http/router';
import type { Codec, MediaFrame } from '../../core/media';
import { attachFrameOutput } from '../../media/frames/attach-output';
import { transformJpeg } from './image-transform';
import { isLive, type PictureOrigin, type SnapshotCache } from './snapshot-cache';
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
 * transcoder when viewers keep one running; JPEG sources give their next picture as is. An
 * idle stream has no cached keyframe: its source is dialed and its first keyframe waited for.
 * `width|w`, `height|h`, `rotate` resize and turn it; `cache=5s` may answer from memory while
 * the source connection the remembered picture came from is still up.
 */
export async function serveSnapshot(deps: SnapshotDeps, { req, res, url }: RouteRequest): Promise<void> {
  const params = parseSnapshotParams(url.searchParams);
  const src = url.searchParams.get('src')?.trim() ?? '';
  const named = src !== '' && !!deps.streams.get(src);
  let jpeg = named && params.cacheMs > 0 ? deps.cache.get(src, params.cacheMs) : undefined;
  if (!jpeg && named) {
    const live = deps.transcoders.latest(src);
    if (live && Date.now() - live.at <= LIVE_PICTURE_MS && isLive(live.origin)) jpeg = live.jpeg;
  }
  if (!jpeg) {
    const picture = await takePicture(deps, src, req, res);
    deps.cache.set(src, picture.jpeg, picture.origin);
    jpeg = picture.jpeg;
  }
  const body = await transformJpeg(jpeg, params);
  if (res.destroyed) return;
  res.writeHead(200, { 'Content-Type': 'image/jpeg', 'Content-Length': body.length, 'Cache-Control': 'no-cache', Pragma: 'no-cache' });
  res.end(body);
}

interface Keyframe {
  codec: Codec;
  frame: MediaFrame;
  origin: PictureOrigin;
}

/**
 * The stream's next keyframe as a JPEG: the cached one at once when its source is connected,
 * else the first of the connection this dials (never one kept from a connection before).
 */
async function takePicture(
  deps: SnapshotDeps,
  src: string,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<{ jpeg: Uint8Array; origin: PictureOrigin }> {
  let settle!: { resolve(picture: Keyframe): void; reject(error: Error): void };
  const first = new Promise<Keyframe>((resolve, reject) => (settle = { resolve, reject }));
  const output = await attachFrameOutput(deps, {
    src,
    format: 'jpeg',
    request: req,
    requests: PICTURE_REQUEST,
    onFrame: (track, frame) => {
      if (frame.keyframe)
        settle.resolve({ codec: track.codec, frame, origin: { source: track.source, connection: track.source.connection } });
    },
    onClose: (reason) => settle.reject(new HttpError(503, `stream ${src} ended before it gave a picture: ${reason}`)),
  });
  const timeoutMs = deps.pictureTimeoutMs ?? 10_000;
  const timer = setTimeout(
    () => settle.reject(new HttpError(503, `stream ${src} gave no picture within ${timeoutMs / 1000} s`)),
    timeoutMs,
  );
  const left = () => settle.reject(new HttpError(503, 'the client left before the picture came'));
  res.once('close', left);
  let picture: Keyframe;
  try {
    picture = await first;
  } finally {
    clearTimeout(timer);
    res.off('close', left);
    output.release();
  }
  if (picture.codec.name === 'JPEG') return { jpeg: picture.frame.data, origin: picture.origin };
  try {
    return { jpeg: await deps.decoders.decode(src, picture.codec, picture.frame), origin: picture.origin };
  } catch (error) {
    throw new HttpError(500, `could not decode a picture of ${src}: ${(error as Error).message}`);
  }
}
