import type { ProtocolContext } from '../protocol-context';
import { DEFAULT_HLS_TIMINGS, type HlsTimings } from './hls-session';
import { createHlsSessions, type HlsSessions } from './hls-sessions';
import { registerHlsRoutes } from './hls-routes';

const MAX_SESSIONS = 64;

/**
 * HLS output on the API server (go2rtc's /api/stream.m3u8 and /api/hls/*); sessions end with the
 * engine. They are returned for /api/ws, whose `hls` mode opens them too.
 */
export function registerHls({ ctx, streams, tasks }: ProtocolContext, timings: HlsTimings = DEFAULT_HLS_TIMINGS): HlsSessions {
  const sessions = createHlsSessions(
    { streams, tasks, callersAuthenticated: !!ctx.settings.api.username },
    { timings, maxSessions: MAX_SESSIONS },
  );
  registerHlsRoutes(ctx.http, sessions);
  ctx.onClose(() => sessions.closeAll());
  return sessions;
}
