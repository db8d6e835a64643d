import type { ProtocolContext } from '../protocol-context';
import { serveFrameMp4 } from './frame-mp4';
import type { Mp4Deps } from './mp4-deps';
import { serveStreamMp4 } from './stream-mp4';

/** go2rtc's MP4 outputs on the API server: GET (and HEAD) /api/stream.mp4 and /api/frame.mp4. */
export function registerMp4({ ctx, streams, tasks, logger }: ProtocolContext): void {
  const deps: Mp4Deps = { streams, tasks, callersAuthenticated: !!ctx.settings.api.username, logger: logger.child('mp4') };
  ctx.http.route('/api/stream.mp4', (request) => serveStreamMp4(deps, request), ['GET', 'HEAD']);
  ctx.http.route('/api/frame.mp4', (request) => serveFrameMp4(deps, request), ['GET', 'HEAD']);
}
