import type { ServerResponse } from 'node:http';
import { HttpError } from '@main/platform/http/http-error';
import type { HttpRouter, RouteHandler } from '@main/platform/http/router';
import type { PlaylistWait } from './blocking-reload';
import type { HlsSession } from './hls-session';
import type { HlsSessions } from './hls-sessions';
import { masterPlaylist } from './playlists';

const PLAYLIST_TYPE = 'application/vnd.apple.mpegurl';
/** What go2rtc says about bandwidth, which the relay does not know before the first segment. */
const BANDWIDTH = 1_000_000;

/**
 * go2rtc's HLS paths. Players on pages of other sites (a dashboard, a Chromecast receiver) read
 * a named stream's HLS, as go2rtc lets them: its answers carry `Access-Control-Allow-Origin: *`.
 * A source URL's temporary stream never does (other sites may not open those at all); beyond
 * that, `api.origin` decides, and the API server adds its CORS headers to every answer.
 */
export function registerHlsRoutes(http: HttpRouter, sessions: HlsSessions): void {
  const route = (path: string, handler: RouteHandler) => http.add([{ method: 'GET', path, handler }]);

  route('/api/stream.m3u8', async ({ req, res, url }) => {
    const session = await sessions.open(url.searchParams, req);
    openToPlayers(res, session);
    send(res, PLAYLIST_TYPE, await sessionMasterPlaylist(session));
  });

  route('/api/hls/playlist.m3u8', async ({ res, url }) => {
    const session = sessions.find(url.searchParams.get('id'));
    openToPlayers(res, session);
    const wait = playlistWait(url.searchParams);
    send(res, PLAYLIST_TYPE, await session.serve(() => session.playlist(wait)));
  });

  const segmentRoute = (path: string, container: HlsSession['container'], type: string) =>
    route(path, async ({ res, url }) => {
      const session = sessions.find(url.searchParams.get('id'));
      openToPlayers(res, session);
      if (session.container !== container)
        throw new HttpError(
          404,
          `HLS session ${session.id} serves ${session.container === 'ts' ? 'MPEG-TS (segment.ts)' : 'fMP4 (segment.m4s)'} segments`,
        );
      const sequence = segmentNumber(url.searchParams.get('n'));
      send(res, type, await session.serve(() => session.segment(sequence)));
    });
  segmentRoute('/api/hls/segment.ts', 'ts', 'video/mp2t');
  segmentRoute('/api/hls/segment.m4s', 'fmp4', 'video/iso.segment');

  const partRoute = (path: string, container: HlsSession['container'], type: string) =>
    route(path, async ({ res, url }) => {
      const session = sessions.find(url.searchParams.get('id'));
      openToPlayers(res, session);
      if (session.container !== container)
        throw new HttpError(
          404,
          `HLS session ${session.id} serves ${session.container === 'ts' ? 'MPEG-TS (part.ts)' : 'fMP4 (part.m4s)'} parts`,
        );
      const sequence = segmentNumber(url.searchParams.get('n'));
      const index = partNumber(url.searchParams.get('p'));
      send(res, type, await session.serve(() => session.part(sequence, index)));
    });
  partRoute('/api/hls/part.ts', 'ts', 'video/mp2t');
  partRoute('/api/hls/part.m4s', 'fmp4', 'video/iso.segment');

  route('/api/hls/init.mp4', async ({ res, url }) => {
    const session = sessions.find(url.searchParams.get('id'));
    openToPlayers(res, session);
    send(res, 'video/mp4', await session.serve(() => session.init()));
  });
}

/** A named stream's HLS may be read by players on any page (not a temporary stream of a source URL). */
function openToPlayers(res: ServerResponse, session: HlsSession): void {
  if (session.named && !res.headersSent) res.setHeader('Access-Control-Allow-Origin', '*');
}

/** A session's master playlist: one variant, `hls/playlist.m3u8?id=` relative to /api/. */
export async function sessionMasterPlaylist(session: HlsSession): Promise<string> {
  const variant = await session.serve(() => session.variant());
  return masterPlaylist({ ...variant, bandwidth: BANDWIDTH, uri: `hls/playlist.m3u8?id=${session.id}` });
}

function segmentNumber(n: string | null): number {
  if (n === null || !/^\d{1,15}$/.test(n))
    throw new HttpError(400, `n must be a segment number from the playlist, not ${n === null ? 'missing' : JSON.stringify(n)}`);
  return Number(n);
}

function partNumber(p: string | null): number {
  if (p === null || !/^\d{1,6}$/.test(p))
    throw new HttpError(400, `p must be a part number from the playlist, not ${p === null ? 'missing' : JSON.stringify(p)}`);
  return Number(p);
}

/** `_HLS_msn` (and `_HLS_part`) of a blocking playlist reload; undefined for a plain one. */
function playlistWait(query: URLSearchParams): PlaylistWait | undefined {
  const msn = query.get('_HLS_msn');
  const part = query.get('_HLS_part');
  if (msn === null) {
    if (part !== null) throw new HttpError(400, '_HLS_part needs _HLS_msn');
    return undefined;
  }
  if (!/^\d{1,15}$/.test(msn)) throw new HttpError(400, `_HLS_msn must be a media sequence number, not ${JSON.stringify(msn)}`);
  if (part !== null && !/^\d{1,6}$/.test(part)) throw new HttpError(400, `_HLS_part must be a part number, not ${JSON.stringify(part)}`);
  return { msn: Number(msn), part: part === null ? undefined : Number(part) };
}

function send(res: ServerResponse, type: string, body: string | Uint8Array): void {
  res.writeHead(200, { 'Content-Type': type, 'Content-Length': Buffer.byteLength(body), 'Cache-Control': 'no-cache' });
  res.end(body);
}
