import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { EngineContext } from '../../engine/engine-context';
import { isForeignOrigin } from '../../platform/http/cross-origin';
import { HttpError } from '../../platform/http/http-error';
import type { StreamRegistry } from '../core/stream-registry';
import type { TaskRegistry } from '../core/task-registry';
import type { ProtocolContext } from '../protocols';
import { EXTRA_HOST_ADDRESSES } from '../webrtc/webrtc-protocol';
import { startMseViewer } from '../mp4/mse-session';
import type { Mp4Deps } from '../mp4/mp4-deps';
import { openWebrtcSession, type WebrtcSession } from '../webrtc/webrtc-session';

/** A message is an SDP or a candidate: a few kilobytes. */
const MAX_MESSAGE_BYTES = 64 * 1024;

export interface WsApiDeps {
  streams: StreamRegistry;
  tasks: TaskRegistry;
  /** Extra WebRTC host candidates (loopback). */
  hostAddresses: string[];
  /** What the MSE mode writes MP4 with. */
  mp4: Mp4Deps;
}

interface Message {
  type: string;
  value?: unknown;
}

/**
 * go2rtc's WebSocket API, `GET /api/ws?src=<stream>`, as its player, Frigate's live view and
 * dashboards use it. WebRTC: `{"type": "webrtc/offer", "value": sdp}` is answered with
 * `{"type": "webrtc/answer", "value": sdp}` (every candidate of the relay in it);
 * `{"type": "webrtc/candidate", "value": "candidate:..."}` adds one of the viewer's as it finds
 * them. MSE: `{"type": "mse", "value": "<codecs the browser plays>"}` is answered with
 * `{"type": "mse", "value": "<MIME type>"}` and then fragmented MP4 in binary messages.
 * Anything the relay cannot do is `{"type": "error", "value": "<why>"}`. What the socket started
 * ends with it. Pages of other sites are refused, as for the HTTP API.
 */
export function serveWsApi(ctx: EngineContext, deps: WsApiDeps): void {
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });
  ctx.onClose(() => {
    for (const client of wss.clients) client.terminate();
    wss.close();
  });

  ctx.server.upgrade('/api/ws', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (isForeignOrigin(req)) {
      socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => serve(ws, req));
  });

  function serve(ws: WebSocket, req: IncomingMessage): void {
    const src = new URL(req.url ?? '/', 'http://localhost').searchParams.get('src') ?? '';
    const send = (message: Message): void => {
      if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(message));
    };
    const fail = (why: string) => send({ type: 'error', value: why });
    let session: WebrtcSession | undefined;
    /** Candidates that came before the answer was made: added once the session exists. */
    const early: string[] = [];
    let offering = false;
    let stopMse: (() => void) | undefined;

    ws.on('close', () => {
      session?.close('the viewer left');
      stopMse?.();
    });
    ws.on('message', (data, isBinary) => {
      let message: Message;
      try {
        if (isBinary) throw new Error('binary');
        message = JSON.parse(data.toString()) as Message;
        if (typeof message?.type !== 'string') throw new Error('no type');
      } catch {
        return fail('messages are JSON objects with a type, e.g. {"type": "webrtc/offer", "value": "v=0..."}');
      }
      switch (message.type) {
        case 'webrtc/offer':
        case 'webrtc':
          return void offer(message.value);
        case 'webrtc/candidate':
          if (typeof message.value !== 'string') return fail('webrtc/candidate needs the candidate line as its value');
          if (!session) return void early.push(message.value);
          return void session.addRemoteCandidate(message.value).catch((error: Error) => fail(`candidate refused: ${error.message}`));
        case 'mse':
          return void mse(typeof message.value === 'string' ? message.value : '');
        default:
          return fail(`${message.type} is not served here yet; use webrtc/offer or mse`);
      }
    });

    async function mse(codecs: string): Promise<void> {
      if (stopMse) return fail('this socket streams MSE already');
      stopMse = () => undefined; // taken while it attaches
      try {
        stopMse = await startMseViewer(deps.mp4, src, codecs, req, {
          sendText: send,
          sendBinary: (chunk) => ws.readyState === ws.OPEN && ws.send(chunk, { binary: true }),
          buffered: () => ws.bufferedAmount,
          ended: (reason) => fail(reason),
        });
      } catch (error) {
        stopMse = undefined;
        return fail(error instanceof HttpError ? error.message : (error as Error).message);
      }
      if (ws.readyState !== ws.OPEN) stopMse();
    }

    async function offer(value: unknown): Promise<void> {
      if (typeof value !== 'string') return fail('webrtc/offer needs the SDP offer as its value');
      if (offering || session) return fail('this socket has a WebRTC session already');
      const stream = deps.streams.get(src);
      if (!stream) return fail(`stream not found: ${src}`);
      offering = true;
      try {
        session = await openWebrtcSession({ stream, streamName: src, offer: value, request: req, tasks: deps.tasks, hostAddresses: deps.hostAddresses, onClosed: () => ws.close() });
      } catch (error) {
        return fail(error instanceof HttpError ? error.message : `the offer could not be answered: ${(error as Error).message}`);
      }
      if (ws.readyState !== ws.OPEN) return session.close('the viewer left');
      send({ type: 'webrtc/answer', value: session.answer });
      for (const candidate of early.splice(0)) await session.addRemoteCandidate(candidate).catch(() => undefined);
    }
  }
}

/** `/api/ws` on the API server, with the relay's streams. */
export function registerWsApi({ ctx, streams, tasks, logger }: ProtocolContext): void {
  serveWsApi(ctx, {
    streams,
    tasks,
    hostAddresses: EXTRA_HOST_ADDRESSES,
    mp4: { streams, tasks, callersAuthenticated: !!ctx.settings.api.username, logger: logger.child('mse') },
  });
}
