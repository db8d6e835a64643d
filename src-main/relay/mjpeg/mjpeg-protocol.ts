import type { ProtocolContext } from '../protocols';
import { serveSnapshot } from './frame-jpeg';
import { createMjpegTranscoders } from './mjpeg-transcoders';
import { createSnapshotCache } from './snapshot-cache';
import { createSnapshotDecoders } from './snapshot-decoders';
import { serveMjpegStream } from './stream-mjpeg';

export interface MjpegOptions {
  ffmpegBinary?: string;
  /** How long a stream's snapshot decoder stays up after its last snapshot (default 30 s). */
  snapshotIdleMs?: number;
}

/** GET /api/stream.mjpeg and GET /api/frame.jpeg (POST /api/stream.mjpeg, the upload, is the ingest's). */
export function registerMjpeg({ ctx, streams, tasks }: ProtocolContext, options: MjpegOptions = {}): void {
  const transcoders = createMjpegTranscoders({ tasks, ffmpegBinary: options.ffmpegBinary });
  const decoders = createSnapshotDecoders({ tasks, ffmpegBinary: options.ffmpegBinary, idleMs: options.snapshotIdleMs });
  const cache = createSnapshotCache();
  ctx.onClose(() => {
    transcoders.close();
    decoders.close();
  });
  const callersAuthenticated = !!ctx.settings.api.username;
  ctx.http.route('/api/stream.mjpeg', (request) => serveMjpegStream({ streams, tasks, callersAuthenticated, transcoders }, request), ['GET']);
  ctx.http.route('/api/frame.jpeg', (request) => serveSnapshot({ streams, tasks, callersAuthenticated, transcoders, decoders, cache }, request), ['GET']);
}
