import type { ServerResponse } from 'node:http';
import type { EngineContext } from '@main/engine/engine-context';
import { HttpError } from '@main/platform/http/http-error';
import type { RouteRequest } from '@main/platform/http/router';
import { SourceRejectedError, type StreamRegistry } from '../../core/stream-registry';
import type { TaskRegistry } from '../../core/task-registry';
import type { ProtocolContext } from '../protocol-context';
import { readBody } from '../../api/read-body';
import { openWebrtcSession, peerOfRequest, type WebrtcOutput, type WebrtcSession } from '../webrtc/webrtc-session';
import { linkedStream, parseAddRequest, parseOfferForm } from './rtsp-to-webrtc-requests';

/** A form with a base64 SDP offer, or an add request: a few kilobytes. */
const MAX_BODY_BYTES = 64 * 1024;

interface RtspToWebrtcDeps {
  streams: StreamRegistry;
  tasks: TaskRegistry;
  webrtc: WebrtcOutput;
}

/**
 * The RTSPtoWebRTC server API, which Home Assistant's RTSPtoWebRTC integration calls:
 * `POST /stream/{id}/add` names a camera's RTSP URL, `POST /stream/{id}/channel/0/webrtc` with
 * the form field `data` (the base64 SDP offer) answers with the base64 SDP answer, and `/static`
 * and `/streams` answer the integration's health checks. A URL that points at one of the relay's
 * own streams (`rtsp://host:8554/door`, or just `door`) makes the id another name for that
 * stream; any other URL becomes the stream's source, checked as every source from the API is
 * (commands are refused). As in go2rtc, what `add` does lasts until the relay restarts.
 */
function registerRtspToWebrtcRoutes(ctx: EngineContext, deps: RtspToWebrtcDeps): void {
  const { streams } = deps;
  /** id → the stream of the relay it names. */
  const aliases = new Map<string, string>();
  const sessions = new Map<string, WebrtcSession>();
  ctx.onClose(() => {
    for (const session of [...sessions.values()]) session.close('the relay stops');
  });

  const ok = (res: ServerResponse) => {
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end('{"status":1,"payload":{}}');
  };
  /** Any call under /stream/: the two the integration makes, the rest refused in its words. */
  const streamCall = async ({ req, res, url }: RouteRequest): Promise<void> => {
    if (req.method !== 'POST') throw new HttpError(405, `method ${req.method} not allowed: the RTSPtoWebRTC API takes POST`);
    const parts = url.pathname.slice('/stream/'.length).split('/');
    const id = decodeURIComponent(parts[0] ?? '');
    if (!id) throw new HttpError(400, 'the stream id is missing: POST /stream/{id}/add or /stream/{id}/channel/0/webrtc');
    const body = await readBody(req, MAX_BODY_BYTES);

    if (parts.length === 2 && parts[1] === 'add') {
      const { name, source } = parseAddRequest(body, id);
      const linked = linkedStream(source, streams);
      if (linked) {
        if (linked === name) aliases.delete(name);
        else aliases.set(name, linked);
        return ok(res);
      }
      try {
        streams.checkSource(source, 'api', name);
      } catch (error) {
        if (error instanceof SourceRejectedError) throw new HttpError(400, error.message);
        throw error;
      }
      aliases.delete(name);
      streams.set(name, [source]);
      return ok(res);
    }

    if (parts.length === 4 && parts[1] === 'channel' && parts[3] === 'webrtc') {
      const name = aliases.get(id) ?? id;
      const stream = streams.get(name);
      if (!stream) throw new HttpError(404, `stream not found: ${id}`);
      const offer = await parseOfferForm(body, req.headers['content-type'] ?? '');
      const session = await openWebrtcSession({
        stream,
        streamName: name,
        offer,
        peer: peerOfRequest(req),
        tasks: deps.tasks,
        ...deps.webrtc,
        onClosed: (closed) => sessions.delete(closed.id),
      });
      sessions.set(session.id, session);
      res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' });
      return void res.end(Buffer.from(session.answer).toString('base64'));
    }
    throw new HttpError(404, `not an RTSPtoWebRTC call: ${url.pathname} (POST /stream/{id}/add or /stream/{id}/channel/0/webrtc)`);
  };

  ctx.http.add([
    { method: ['GET', 'POST'], path: '/static', handler: ({ res }) => ok(res) },
    { method: ['GET', 'POST'], path: '/streams', handler: ({ res }) => ok(res) },
    { method: '*', path: '/stream/*', handler: streamCall },
  ]);
}

/** The RTSPtoWebRTC API on the API server, its sessions those of /api/webrtc. */
export function registerRtspToWebrtc({ ctx, streams, tasks }: ProtocolContext, webrtc: WebrtcOutput): void {
  registerRtspToWebrtcRoutes(ctx, { streams, tasks, webrtc });
}
