import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { HttpError } from '@main/platform/http/http-error';
import type { MediaFrame } from '../../core/media';
import type { MediaRequest } from '../../core/negotiation';
import { QUERY_CLIENT, type ClientAudio } from '../../media/containers/fmp4/audio-form';
import { attachFrameOutput, type OutputDeps } from '../../media/frames/attach-output';
import type { FrameTrack } from '../../media/frames/frame-consumer';
import { requestsFromQuery } from '../rtsp/media-query';
import { createHlsSession, type HlsSession, type HlsSessionHandle, type HlsTimings } from './hls-session';
import type { HlsContainer, SegmentFormat } from './segment-format';
import { createFormat } from './formats';

/** Without filters HLS is MPEG-TS with what it can carry: H.264/H.265 video and AAC audio. */
const TS_REQUESTS: MediaRequest[] = [
  { kind: 'video', codecs: ['H264', 'H265'] },
  { kind: 'audio', codecs: ['MPEG4-GENERIC'] },
];

export interface HlsSessions {
  /** A new session for `GET /api/stream.m3u8` (`src`, and `mp4`/`video`/`audio` for fMP4). */
  open(query: URLSearchParams, request?: IncomingMessage): Promise<HlsSession>;
  /**
   * A new fMP4 session with what `requests` lets through, PCM written as `client` decodes it
   * (go2rtc's WebSocket `hls` mode: the browser's codecs).
   */
  openFmp4(src: string, requests: MediaRequest[], client: ClientAudio, request?: IncomingMessage): Promise<HlsSession>;
  /** The session `id` names, or a 404 that says so. */
  find(id: string | null): HlsSession;
  readonly size: number;
  closeAll(): void;
}

export interface HlsSessionsOptions {
  timings: HlsTimings;
  /** Sessions alive at once (each holds a consumer and its segments); more are refused with 503. */
  maxSessions: number;
}

/** The HLS sessions of one relay: created per engine, never global. */
export function createHlsSessions(deps: OutputDeps, options: HlsSessionsOptions): HlsSessions {
  const sessions = new Map<string, HlsSession>();

  const start = async (
    src: string | null,
    container: HlsContainer,
    requests: MediaRequest[],
    client: ClientAudio,
    request?: IncomingMessage,
  ): Promise<HlsSession> => {
    if (sessions.size >= options.maxSessions)
      throw new HttpError(503, `too many HLS sessions (${options.maxSessions}); try again when some have expired`);
    // Frames of the cached GOP arrive while the output attaches, before its tracks are all known:
    // they wait in `early` until the session exists, then frames go straight to it.
    const early: Array<[FrameTrack, MediaFrame]> = [];
    const link: { session?: HlsSessionHandle; endedEarly?: string } = {};
    const output = await attachFrameOutput(deps, {
      src,
      requests,
      format: container === 'ts' ? 'hls/mpegts' : 'hls/fmp4',
      request,
      onFrame: (track, frame) => (link.session ? link.session.push(track, frame) : early.push([track, frame])),
      onClose: (reason) => (link.session ? link.session.session.close(reason) : (link.endedEarly = reason)),
    });
    let format: SegmentFormat;
    try {
      if (link.endedEarly) throw new HttpError(503, `stream ${output.streamName} ended: ${link.endedEarly}`);
      format = createFormat(container, output.consumer.tracks, client);
    } catch (error) {
      output.release();
      throw error instanceof HttpError ? error : new HttpError(400, (error as Error).message);
    }
    const id = randomBytes(12).toString('base64url');
    link.session = createHlsSession({ id, output, format, timings: options.timings, early, onClosed: () => sessions.delete(id) });
    const session = link.session.session;
    sessions.set(id, session);
    return session;
  };

  return {
    open(query, request) {
      const container: HlsContainer = query.has('mp4') || query.has('video') || query.has('audio') ? 'fmp4' : 'ts';
      return start(query.get('src'), container, container === 'ts' ? TS_REQUESTS : requestsFromQuery(query), QUERY_CLIENT, request);
    },
    openFmp4: (src, requests, client, request) => start(src, 'fmp4', requests, client, request),
    find(id) {
      if (!id) throw new HttpError(400, 'id is required: the HLS session id from the master playlist (/api/stream.m3u8)');
      const session = sessions.get(id);
      if (!session) throw new HttpError(404, `HLS session ${id} not found: it expired or never existed; open /api/stream.m3u8 again`);
      return session;
    },
    get size() {
      return sessions.size;
    },
    closeAll() {
      for (const session of [...sessions.values()]) session.close('relay stopped');
    },
  };
}
