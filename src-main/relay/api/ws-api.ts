import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import type { EngineContext } from '../../engine/engine-context';
import { isCrossSiteRequest } from '../../platform/http/cross-origin';
import { HttpError } from '../../platform/http/http-error';
import type { StreamRegistry } from '../core/stream-registry';
import type { TaskRegistry } from '../core/task-registry';
import type { ProtocolContext } from '../protocols/protocol-context';
import { startMseViewer } from '../protocols/mp4/mse-session';
import type { Mp4Deps } from '../protocols/mp4/mp4-deps';
import { openWebrtcSession, peerOfRequest, type WebrtcOutput, type WebrtcSession } from '../protocols/webrtc/webrtc-session';
import { openWhipSession } from '../protocols/webrtc/whip-session';
import type { HlsSessions } from '../protocols/hls/hls-sessions';
import { sessionMasterPlaylist } from '../protocols/hls/hls-routes';
import { startMjpegViewer, type MjpegStreamDeps } from '../protocols/mjpeg/stream-mjpeg';
import { clientAudioFromCodecs, mseRequests } from '../protocols/mp4/mse-codecs';
import { requestsFromQuery } from '../protocols/rtsp/media-query';
import { openNamedStream, openOutputStream, type OpenedStream } from '../media/frames/attach-output';

/** A message is an SDP or a candidate: a few kilobytes. */
const MAX_MESSAGE_BYTES = 64 * 1024;

export interface WsApiDeps {
  streams: StreamRegistry;
  tasks: TaskRegistry;
  /** Where WebRTC sessions run (shared with /api/webrtc). */
  webrtc: WebrtcOutput;
  /** What the MSE mode writes MP4 with. */
  mp4: Mp4Deps;
  /** The HLS sessions the `hls` mode opens (shared with /api/stream.m3u8). */
  hls: HlsSessions;
  /** What the `mjpeg` mode's pictures come from (shared with /api/stream.mjpeg). */
  mjpeg: MjpegStreamDeps;
}

/** Pictures a socket may leave unsent before the next ones are skipped: two, and at least this. */
const MJPEG_BACKLOG = 256 * 1024;

interface Message {
  type: string;
  value?: unknown;
}

/**
 * go2rtc's WebSocket API, `GET /api/ws?src=<stream>`, as its player, Frigate's live view and
 * dashboards use it. WebRTC: `{"type": "webrtc/offer", "value": sdp}` is answered with
 * `{"type": "webrtc/answer", "value": sdp}` (every candidate of the relay in it), and Home
 * Assistant's `{"type": "webrtc", "value": {"type": "offer", "sdp": sdp}}` with
 * `{"type": "webrtc", "value": {"type": "answer", "sdp": sdp}}`; `src` may be a source URL;
 * `{"type": "webrtc/candidate", "value": "candidate:..."}` adds one of the viewer's as it finds
 * them. MSE: `{"type": "mse", "value": "<codecs the browser plays>"}` is answered with
 * `{"type": "mse", "value": "<MIME type>"}` and then fragmented MP4 in binary messages. HLS:
 * `{"type": "hls", "value": "<codecs>"}` opens an fMP4 HLS session and is answered with its
 * master playlist (`hls/playlist.m3u8?id=`, relative to /api/). MJPEG: `{"type": "mjpeg"}` is
 * answered with `{"type": "mjpeg"}` and then one JPEG picture per binary message.
 * Anything the relay cannot do is `{"type": "error", "value": "<why>"}`. `?dst=<stream>` takes a
 * WebRTC offer that publishes into the stream. MSE and a session still negotiating end with the
 * socket; a connected WebRTC session lives on its peer connection. Pages of other sites are
 * refused, as for the HTTP API.
 */
function serveWsApi(ctx: EngineContext, deps: WsApiDeps): void {
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });
  ctx.onClose(() => {
    for (const client of wss.clients) client.terminate();
    wss.close();
  });

  ctx.server.upgrade('/api/ws', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (isCrossSiteRequest(req)) {
      socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => serve(ws, req));
  });

  function serve(ws: WebSocket, req: IncomingMessage): void {
    const query = new URL(req.url ?? '/', 'http://localhost').searchParams;
    // ?src= watches a stream; ?dst= publishes into one (WebRTC only, as in go2rtc).
    const src = query.get('src') ?? '';
    const dst = query.get('dst') ?? '';
    const send = (message: Message): void => {
      if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(message));
    };
    const fail = (why: string) => send({ type: 'error', value: why });
    let session: WebrtcSession | undefined;
    /** Candidates that came before the answer was made: added once the session exists. */
    const early: string[] = [];
    let offering = false;
    let stopMse: (() => void) | undefined;
    let stopMjpeg: (() => void) | undefined;

    ws.on('close', () => {
      // go2rtc's clients (its webrtc: source among them) hang up once media flows: a connected
      // session lives on its peer connection; one still negotiating ends with the socket.
      if (session && !session.isConnected()) session.close('the viewer left');
      stopMse?.();
      stopMjpeg?.();
    });
    ws.on('message', (data, isBinary) => {
      const message = parseMessage(data, isBinary);
      if (!message) return fail('messages are JSON objects with a type, e.g. {"type": "webrtc/offer", "value": "v=0..."}');
      switch (message.type) {
        case 'webrtc/offer':
          return void offer(message.value, 'sdp');
        case 'webrtc': {
          // The object form Home Assistant sends: {"type": "webrtc", "value": {"type": "offer",
          // "sdp": "...", "ice_servers": [...]}}, answered in the same form.
          const value = message.value as { type?: unknown; sdp?: unknown } | null;
          if (typeof value !== 'object' || value === null || value.type !== 'offer')
            return fail('webrtc needs {"type": "offer", "sdp": "v=0..."} as its value');
          return void offer(value.sdp, 'object');
        }
        case 'webrtc/candidate':
          if (typeof message.value !== 'string') return fail('webrtc/candidate needs the candidate line as its value');
          if (!session) return void early.push(message.value);
          return void session.addRemoteCandidate(message.value).catch((error: Error) => fail(`candidate refused: ${error.message}`));
        case 'mse':
          if (!src) return fail('mse needs ?src=<stream> on the socket URL');
          return void mse(typeof message.value === 'string' ? message.value : '');
        case 'hls':
          if (!src) return fail('hls needs ?src=<stream> on the socket URL');
          return void answerHls(deps.hls, src, req, typeof message.value === 'string' ? message.value : '', send, fail);
        case 'mjpeg':
          if (!src) return fail('mjpeg needs ?src=<stream> on the socket URL');
          return void mjpeg();
        default:
          return fail(`${message.type} is not a mode of this API: use webrtc/offer, mse, hls or mjpeg`);
      }
    });

    async function mjpeg(): Promise<void> {
      if (stopMjpeg) return fail('this socket streams MJPEG already');
      stopMjpeg = () => undefined; // taken while it attaches
      let started = false;
      try {
        stopMjpeg = await startMjpegViewer(deps.mjpeg, src, req, {
          send(jpeg) {
            if (!started || ws.readyState !== ws.OPEN || ws.bufferedAmount > Math.max(MJPEG_BACKLOG, 2 * jpeg.length)) return false;
            ws.send(jpeg, { binary: true });
            return true;
          },
          ended: () => fail(`stream ${src} ended`),
        });
      } catch (error) {
        stopMjpeg = undefined;
        return fail((error as Error).message);
      }
      if (ws.readyState !== ws.OPEN) return stopMjpeg();
      send({ type: 'mjpeg' });
      started = true;
    }

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

    /** `form`: the answer goes back as the offer came, an SDP string (webrtc/answer) or an object (webrtc). */
    async function offer(value: unknown, form: 'sdp' | 'object'): Promise<void> {
      if (typeof value !== 'string')
        return fail(form === 'sdp' ? 'webrtc/offer needs the SDP offer as its value' : 'webrtc needs the SDP offer in value.sdp');
      if (offering || session) return fail('this socket has a WebRTC session already');
      const name = src || dst;
      // A viewer may name a source URL as src, as for MSE and stream.mp4 (with the same rules);
      // a publisher only a stream of the config.
      let opened: OpenedStream | undefined;
      try {
        opened = src ? openOutputStream(deps.mp4, src, req) : openNamedStream(deps.streams, name);
      } catch (error) {
        return fail((error as Error).message);
      }
      if (!opened) return fail(`stream not found: ${name}`);
      offering = true;
      try {
        const onClosed = () => {
          ws.close();
          opened.release();
        };
        const options = {
          stream: opened.stream,
          streamName: name,
          offer: value,
          peer: peerOfRequest(req),
          tasks: deps.tasks,
          ...deps.webrtc,
          onClosed,
        };
        session = src ? await openWebrtcSession(options) : await openWhipSession(options);
      } catch (error) {
        opened.release();
        return fail(error instanceof HttpError ? error.message : `the offer could not be answered: ${(error as Error).message}`);
      }
      if (ws.readyState !== ws.OPEN) return session.close('the viewer left');
      send(
        form === 'sdp'
          ? { type: 'webrtc/answer', value: session.answer }
          : { type: 'webrtc', value: { type: 'answer', sdp: session.answer } },
      );
      for (const candidate of early.splice(0)) await session.addRemoteCandidate(candidate).catch(() => undefined);
    }
  }
}

/** A text message that is a JSON object with a type; anything else is undefined. */
function parseMessage(data: RawData, isBinary: boolean): Message | undefined {
  if (isBinary) return undefined;
  try {
    const message = JSON.parse(data.toString()) as Message | null;
    return typeof message?.type === 'string' ? message : undefined;
  } catch {
    return undefined;
  }
}

/** The `hls` mode: opens an fMP4 HLS session for the codecs the browser plays and answers with its master playlist. */
async function answerHls(
  sessions: HlsSessions,
  src: string,
  req: IncomingMessage,
  codecs: string,
  send: (message: Message) => void,
  fail: (why: string) => void,
): Promise<void> {
  // Without the browser's list, what HLS players take everywhere: H.264/H.265 and AAC.
  const requests = codecs ? mseRequests(codecs) : requestsFromQuery(new URLSearchParams('mp4'));
  if (requests.length === 0) return fail(`none of the codecs the browser plays (${codecs}) is one the relay sends in HLS`);
  try {
    const session = await sessions.openFmp4(src, requests, clientAudioFromCodecs(codecs), req);
    send({ type: 'hls', value: await sessionMasterPlaylist(session) });
  } catch (error) {
    fail((error as Error).message);
  }
}

/** `/api/ws` on the API server, with the relay's streams. */
export function registerWsApi(
  { ctx, streams, tasks, logger }: ProtocolContext,
  outputs: Pick<WsApiDeps, 'webrtc' | 'hls' | 'mjpeg'>,
): void {
  serveWsApi(ctx, {
    streams,
    tasks,
    ...outputs,
    mp4: { streams, tasks, callersAuthenticated: !!ctx.settings.api.username, logger: logger.child('mse') },
  });
}
