import { WebSocket } from 'ws';
import type { Logger } from '@main/platform/logger';
import type { StreamRegistry } from '../../core/stream-registry';
import type { TaskRegistry } from '../../core/task-registry';
import { openWebrtcSession, type WebrtcOutput, type WebrtcSession } from '../webrtc/webrtc-session';
import { ShareCipherError, shareCipher, shareInfoHash } from './share-cipher';
import { newPeerId, parseTrackerMessage, type TrackerMessage } from './tracker-messages';

/** A stream shared under a name and password: whoever knows both can watch it over WebRTC. */
export interface Share {
  share: string;
  pwd: string;
  src: string;
}

const ANNOUNCE_EVERY_MS = 60_000;
const RECONNECT_MS = [1000, 5000, 15_000, 60_000];

/**
 * Keeps the shares announced on the tracker and answers the offers that open with a share's
 * pwd: each becomes a WebRTC session of the shared stream, its answer sealed the same way.
 * Offers that do not open (a wrong pwd) get nothing back. Connected only while shares exist.
 */
export function createShareServer(deps: {
  tracker: () => string;
  streams: StreamRegistry;
  tasks: TaskRegistry;
  webrtc: WebrtcOutput;
  logger: Logger;
}) {
  const shares = new Map<string, Share>();
  const sessions = new Set<WebrtcSession>();
  const peerId = newPeerId();
  let socket: WebSocket | undefined;
  let announceTimer: NodeJS.Timeout | undefined;
  let reconnectTimer: NodeJS.Timeout | undefined;
  let failures = 0;
  let closed = false;

  const send = (message: object) => {
    if (socket?.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
  };
  const announce = (share: Share) =>
    send({ action: 'announce', info_hash: shareInfoHash(share.share), peer_id: peerId, offers: [], numwant: 10 });

  async function answerOffer(message: TrackerMessage): Promise<void> {
    const share = message.info_hash ? shares.get(message.info_hash) : undefined;
    if (!share || !message.offer_id || !message.offer?.sdp || !message.peer_id) return;
    let offer: string;
    let cipher;
    try {
      cipher = shareCipher(share.share, share.pwd, message.offer_id);
      offer = cipher.open(message.offer.sdp);
    } catch (error) {
      if (!(error instanceof ShareCipherError)) throw error;
      deps.logger.debug('webtorrent offer refused', { share: share.src, why: error.message });
      return;
    }
    const stream = deps.streams.get(share.src);
    if (!stream) {
      deps.logger.warn('webtorrent share names no stream', { stream: share.src });
      return;
    }
    const session = await openWebrtcSession({
      stream,
      streamName: share.src,
      offer,
      peer: { remote: `webtorrent:${message.peer_id}`, userAgent: 'webtorrent' },
      tasks: deps.tasks,
      ...deps.webrtc,
      onClosed: (ended) => sessions.delete(ended),
    });
    sessions.add(session);
    send({
      action: 'announce',
      info_hash: message.info_hash,
      peer_id: peerId,
      offer_id: message.offer_id,
      answer: { type: 'answer', sdp: cipher.seal(session.answer) },
      to_peer_id: message.peer_id,
    });
  }

  function connect(): void {
    if (closed || socket || shares.size === 0) return;
    const url = deps.tracker();
    const ws = new WebSocket(url, { handshakeTimeout: 10_000 });
    socket = ws;
    ws.on('open', () => {
      failures = 0;
      deps.logger.info('webtorrent tracker connected', { tracker: url, shares: shares.size });
      for (const share of shares.values()) announce(share);
      announceTimer = setInterval(() => shares.forEach(announce), ANNOUNCE_EVERY_MS);
    });
    ws.on('message', (data) => {
      const message = parseTrackerMessage(data);
      if (message?.offer) {
        answerOffer(message).catch((error: Error) => deps.logger.warn('webtorrent offer not answered', { error: error.message }));
      }
    });
    ws.on('error', (error) => deps.logger.warn('webtorrent tracker failed', { tracker: url, error: error.message }));
    ws.on('close', () => {
      clearInterval(announceTimer);
      if (socket === ws) socket = undefined;
      if (closed || shares.size === 0) return;
      const wait = RECONNECT_MS[Math.min(failures++, RECONNECT_MS.length - 1)]!;
      reconnectTimer = setTimeout(connect, wait);
    });
  }

  return {
    list: () => [...shares.values()],
    bySrc: (src: string) => [...shares.values()].find((s) => s.src === src),
    add(share: Share): void {
      shares.set(shareInfoHash(share.share), share);
      if (socket) announce(share);
      else connect();
    },
    remove(share: string): void {
      shares.delete(shareInfoHash(share));
      if (shares.size === 0) socket?.close();
    },
    close(): void {
      closed = true;
      clearTimeout(reconnectTimer);
      clearInterval(announceTimer);
      socket?.terminate();
      for (const session of sessions) session.close('the relay is stopping');
    },
  };
}
