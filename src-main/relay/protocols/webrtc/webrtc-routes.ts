import type { ServerResponse } from 'node:http';
import type { EngineContext } from '@main/engine/engine-context';
import { HttpError } from '@main/platform/http/http-error';
import type { StreamRegistry } from '../../core/stream-registry';
import type { TaskRegistry } from '../../core/task-registry';
import { readBody } from '../../api/read-body';
import { openWebrtcSession, peerOfRequest, type WebrtcOutput, type WebrtcSession } from './webrtc-session';
import { iceServerLinks } from './ice/ice-server-links';
import { iceUfrag } from './ice/answer-candidates';
import { parseTrickleFragment } from './trickle-sdpfrag';
import { openWhipSession } from './whip-session';
import { openNamedStream, openOutputStream } from '../../media/frames/attach-output';

/** Browsers watching at once; beyond it a new offer gets 503 rather than exhausting ports and CPU. */
const MAX_SESSIONS = 64;
/** An SDP offer is a few kilobytes; a body far larger is not one. */
const MAX_OFFER_BYTES = 64 * 1024;

export interface WebrtcRoutesDeps extends WebrtcOutput {
  streams: StreamRegistry;
  tasks: TaskRegistry;
  /** The API asks every caller to log in: other sites' pages may then name source URLs too. */
  callersAuthenticated: boolean;
}

/**
 * go2rtc's `POST /api/webrtc`: `?src=<stream>` watches a stream (or a source URL, through a
 * temporary stream, with the same rules as the other outputs), `?dst=<stream>` publishes into
 * one (WHIP). A JSON offer `{type: "offer", sdp}` gets a JSON answer (200); `application/sdp`
 * is WHEP/WHIP (201, the answer, a `Location`, and the ICE servers as `Link`); any other body is
 * a raw SDP offer answered with raw SDP (200). On the `Location` (`/api/webrtc?id=`), PATCH
 * trickles candidates and DELETE ends the session.
 */
export function registerWebrtcRoutes(ctx: EngineContext, deps: WebrtcRoutesDeps): void {
  const sessions = new Map<string, { session: WebrtcSession; remoteUfrag?: string }>();
  ctx.onClose(() => {
    for (const { session } of [...sessions.values()]) session.close('the relay stops');
  });

  // WHEP and WHIP clients learn the ICE servers from the answer's Link header.
  const link = iceServerLinks(deps.network.iceServers);
  const links: Record<string, string> = link ? { Link: link } : {};
  const answer = (res: ServerResponse, status: number, type: string, body: string, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'Content-Type': type, 'Cache-Control': 'no-store', ...headers });
    res.end(body);
  };
  const sessionOf = (url: URL) => {
    const id = url.searchParams.get('id');
    const entry = sessions.get(id ?? '');
    if (!entry) throw new HttpError(404, `no WebRTC session ${id ?? '(id is required)'}`);
    return entry;
  };

  ctx.http.add([
    {
      method: ['POST', 'PATCH', 'DELETE'],
      path: '/api/webrtc',
      handler: async ({ req, res, url }) => {
        if (req.method === 'DELETE') {
          sessionOf(url).session.close('the viewer ended it');
          return void res.writeHead(200).end();
        }
        if (req.method === 'PATCH') {
          const { session, remoteUfrag } = sessionOf(url);
          const fragment = parseTrickleFragment(await readBody(req, MAX_OFFER_BYTES));
          if (fragment.ufrag && remoteUfrag && fragment.ufrag !== remoteUfrag) {
            throw new HttpError(501, 'ICE restarts are not supported: end this session and POST a new offer');
          }
          for (const { candidate, mid } of fragment.candidates) {
            await session.addRemoteCandidate(candidate, mid).catch((error: Error) => {
              throw new HttpError(400, `candidate not usable: ${error.message}`);
            });
          }
          return void res.writeHead(204).end();
        }
        const src = url.searchParams.get('src');
        const dst = url.searchParams.get('dst');
        if (!src && !dst) throw new HttpError(400, 'src or dst is required: the stream to watch, or the stream to publish into');
        const name = (src ?? dst)!;
        if (sessions.size >= MAX_SESSIONS) throw new HttpError(503, `too many WebRTC sessions (${MAX_SESSIONS}); close one and try again`);
        const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
        const body = await readBody(req, MAX_OFFER_BYTES);
        let offer = body;
        if (type === 'application/json') {
          let parsed: unknown;
          try {
            parsed = JSON.parse(body);
          } catch {
            throw new HttpError(400, 'the body is not JSON: send {"type": "offer", "sdp": "..."}');
          }
          const message = parsed as { type?: unknown; sdp?: unknown } | null;
          if (message?.type !== 'offer' || typeof message.sdp !== 'string')
            throw new HttpError(400, 'expected {"type": "offer", "sdp": "..."}');
          offer = message.sdp;
        }
        // Opened once the offer is read, so a refused body leaves no temporary stream behind.
        const opened = src ? openOutputStream(deps, src, req) : openNamedStream(deps.streams, name);
        if (!opened) throw new HttpError(404, `stream not found: ${name}`);
        const { stream } = opened;

        const onClosed = (closed: WebrtcSession) => {
          sessions.delete(closed.id);
          opened.release();
        };
        const common = {
          stream,
          streamName: name,
          offer,
          peer: peerOfRequest(req),
          tasks: deps.tasks,
          network: deps.network,
          opus: deps.opus,
          onClosed,
        };
        let session: WebrtcSession;
        try {
          session = src ? await openWebrtcSession(common) : await openWhipSession(common);
        } catch (error) {
          opened.release();
          throw error;
        }
        sessions.set(session.id, { session, remoteUfrag: iceUfrag(offer) });
        if (type === 'application/json')
          return answer(res, 200, 'application/json', JSON.stringify({ type: 'answer', sdp: session.answer }));
        if (type === 'application/sdp')
          return answer(res, 201, 'application/sdp', session.answer, { Location: `webrtc?id=${session.id}`, ...links });
        return answer(res, 200, 'application/sdp', session.answer);
      },
    },
  ]);
}
