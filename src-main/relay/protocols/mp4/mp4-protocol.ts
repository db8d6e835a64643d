import type { ProtocolContext } from '../protocol-context';
import { serveFrameMp4 } from './frame-mp4';
import type { Mp4Deps } from './mp4-deps';
import { serveStreamMp4 } from './stream-mp4';

/** go2rtc's MP4 outputs on the API server: GET (and HEAD) /api/stream.mp4 and /api/frame.mp4. */
export function registerMp4({ ctx, streams, tasks, logger }: ProtocolContext): void {
  const deps: Mp4Deps = { streams, tasks, callersAuthenticated: !!ctx.settings.api.username, logger: logger.child('mp4') };
  ctx.http.add([
    { method: ['GET', 'HEAD'], path: '/api/stream.mp4', handler: (request) => serveStreamMp4(deps, request) },
    { method: ['GET', 'HEAD'], path: '/api/frame.mp4', handler: (request) => serveFrameMp4(deps, request) },
  ]);
}
