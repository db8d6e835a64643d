import type { ProtocolContext } from '../protocol-context';
import { serveSnapshot } from './frame-jpeg';
import { createMjpegTranscoders } from './mjpeg-transcoders';
import { createSnapshotCache } from './snapshot-cache';
import { createSnapshotDecoders } from './snapshot-decoders';
import { serveMjpegStream, type MjpegStreamDeps } from './stream-mjpeg';

export interface MjpegOptions {
  ffmpegBinary?: string;
  /** How long a stream's snapshot decoder stays up after its last snapshot (default 30 s). */
  snapshotIdleMs?: number;
}

/**
 * GET /api/stream.mjpeg and GET /api/frame.jpeg (POST /api/stream.mjpeg, the upload, is the
 * ingest's). What MJPEG viewers need is returned for /api/ws, whose `mjpeg` mode is one.
 */
export function registerMjpeg({ ctx, streams, tasks }: ProtocolContext, options: MjpegOptions = {}): MjpegStreamDeps {
  const transcoders = createMjpegTranscoders({ tasks, ffmpegBinary: options.ffmpegBinary });
  const decoders = createSnapshotDecoders({ tasks, ffmpegBinary: options.ffmpegBinary, idleMs: options.snapshotIdleMs });
  const cache = createSnapshotCache();
  ctx.onClose(() => {
    transcoders.close();
    decoders.close();
  });
  const callersAuthenticated = !!ctx.settings.api.username;
  const viewers: MjpegStreamDeps = { streams, tasks, callersAuthenticated, transcoders, decoders };
  ctx.http.add([
    { method: 'GET', path: '/api/stream.mjpeg', handler: (request) => serveMjpegStream(viewers, request) },
    {
      method: 'GET',
      path: '/api/frame.jpeg',
      handler: (request) => serveSnapshot({ streams, tasks, callersAuthenticated, transcoders, decoders, cache }, request),
    },
  ]);
  return viewers;
}
