import type { ServerResponse } from 'node:http';
import type { EngineContext } from '../../engine/engine-context';
import { HttpError } from '../../platform/http/http-error';
import type { StreamRegistry } from '../core/stream-registry';
import type { TaskRegistry } from '../core/task-registry';
import { readBody } from '../api/read-body';
import { openWebrtcSession, type WebrtcSession } from './webrtc-session';

/** Browsers watching at once; beyond it a new offer gets 503 rather than exhausting ports and CPU. */
const MAX_SESSIONS = 64;
/** An SDP offer is a few kilobytes; a body far larger is not one. */
const MAX_OFFER_BYTES = 64 * 1024;

export interface WebrtcRoutesDeps {
  streams: StreamRegistry;
  tasks: TaskRegistry;
  hostAddresses: string[];
}

/**
 * go2rtc's `POST /api/webrtc?src=<stream>`: a JSON offer `{type: "offer", sdp}` gets a JSON
 * answer (200); `application/sdp` is WHEP (201, the answer, and a `Location` a DELETE ends);
 * any other body is a raw SDP offer answered with raw SDP (200). `DELETE /api/webrtc?id=` ends
 * a session.
 */
export function registerWebrtcRoutes(ctx: EngineContext, deps: WebrtcRoutesDeps): void {
  const sessions = new Map<string, WebrtcSession>();
  ctx.onClose(() => {
    for (const session of [...sessions.values()]) session.close('the relay stops');
  });

  const answer = (res: ServerResponse, status: number, type: string, body: string, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'Content-Type': type, 'Cache-Control': 'no-store', ...headers });
    res.end(body);
  };

  ctx.http.route(
    '/api/webrtc',
    async ({ req, res, url }) => {
      if (req.method === 'DELETE') {
        const session = sessions.get(url.searchParams.get('id') ?? '');
        if (!session) throw new HttpError(404, `no WebRTC session ${url.searchParams.get('id') ?? '(id is required)'}`);
        session.close('the viewer ended it');
        return void res.writeHead(200).end();
      }
      const src = url.searchParams.get('src');
      if (!src) throw new HttpError(400, 'src is required: the stream to watch');
      const stream = deps.streams.get(src);
      if (!stream) throw new HttpError(404, `stream not found: ${src}`);
      if (sessions.size >= MAX_SESSIONS) throw new HttpError(503, `too many WebRTC viewers (${MAX_SESSIONS}); close one and try again`);

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
        if (message?.type !== 'offer' || typeof message.sdp !== 'string') throw new HttpError(400, 'expected {"type": "offer", "sdp": "..."}');
        offer = message.sdp;
      }

      const session = await openWebrtcSession({
        stream,
        streamName: src,
        offer,
        request: req,
        tasks: deps.tasks,
        hostAddresses: deps.hostAddresses,
        onClosed: (closed) => sessions.delete(closed.id),
      });
      sessions.set(session.id, session);
      if (type === 'application/json') return answer(res, 200, 'application/json', JSON.stringify({ type: 'answer', sdp: session.answer }));
      if (type === 'application/sdp') return answer(res, 201, 'application/sdp', session.answer, { Location: `webrtc?id=${session.id}` });
      return answer(res, 200, 'application/sdp', session.answer);
    },
    ['POST', 'DELETE'],
  );
}
