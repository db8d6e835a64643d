import type { WebSocket } from 'ws';
import { TokenBucket } from '../../core/token-bucket';
import { parseTrackerMessage } from './tracker-messages';

const MAX_PEERS_PER_HASH = 64;
/**
 * Swarms the tracker keeps at once, whoever announced them: a relay has a few shares, so
 * thousands are a flood from many sockets, each within its own budget, and cost memory.
 */
export const MAX_SWARMS = 4096;
/** A relay announces one hash a share under one peer id: a socket with more is a crawl or a flood. */
export const MAX_ANNOUNCES_PER_CONNECTION = 256;
/**
 * The work one socket may make the tracker do, in messages read and sent on its behalf: up to
 * `burst` at once (a relay announcing all its shares on connect), then `perSecond`. An offer
 * costs one more for every peer it is passed to, so a flood of offers into a full swarm runs
 * out 64 times sooner than a relay's announces do. A socket past its budget is closed
 * (1008), so a flood costs no more parsing.
 */
export const TRACKER_WORK_BUDGET = { burst: 1000, perSecond: 200 };

export interface LocalTrackerOptions {
  /** Milliseconds, for the work budget; a test passes its own clock. */
  now?: () => number;
}

/**
 * A WebTorrent tracker small enough to run inside the relay (go2rtc serves one on
 * /api/webtorrent for the same reason): peers announce a hash; an offer is passed to the other
 * peers of that hash, an answer to the peer it is for. It sees only hashes and sealed SDP.
 */
export function createLocalTracker({ now = () => performance.now() }: LocalTrackerOptions = {}) {
  const swarms = new Map<string, Map<string, WebSocket>>();
  const send = (ws: WebSocket, message: object) => {
    if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(message));
  };

  function serve(ws: WebSocket): void {
    const joined = new Set<string>();
    const budget = new TokenBucket(TRACKER_WORK_BUDGET.burst, TRACKER_WORK_BUDGET.perSecond / 1000, now());
    const spend = (work: number): boolean => {
      if (budget.available(now()) < work) {
        ws.close(1008, 'too many tracker messages');
        return false;
      }
      budget.take(work);
      return true;
    };
    ws.on('message', (data) => {
      // Frames already read when the socket was closed for its budget are not looked at.
      if (ws.readyState !== ws.OPEN || !spend(1)) return;
      const message = parseTrackerMessage(data);
      if (!message || message.action !== 'announce' || !message.info_hash || !message.peer_id) return;
      const hash = message.info_hash;
      const key = `${hash}\n${message.peer_id}`;
      if (!joined.has(key) && joined.size >= MAX_ANNOUNCES_PER_CONNECTION) {
        send(ws, {
          action: 'announce',
          info_hash: hash,
          'failure reason': `one connection may announce at most ${MAX_ANNOUNCES_PER_CONNECTION} info hash and peer id pairs`,
        });
        return;
      }
      if (!swarms.has(hash) && swarms.size >= MAX_SWARMS) {
        send(ws, { action: 'announce', info_hash: hash, 'failure reason': `the tracker keeps at most ${MAX_SWARMS} info hashes at once` });
        return;
      }
      const swarm = swarms.get(hash) ?? swarms.set(hash, new Map()).get(hash)!;
      if (!swarm.has(message.peer_id) && swarm.size >= MAX_PEERS_PER_HASH) return;
      swarm.set(message.peer_id, ws);
      joined.add(key);

      if (message.offers) {
        send(ws, { action: 'announce', interval: 120, info_hash: hash, complete: 0, incomplete: swarm.size });
        const first = message.offers[0];
        if (!first?.offer_id || first.offer?.type !== 'offer' || !first.offer.sdp) return;
        if (!spend(swarm.size - 1)) return;
        for (const other of swarm.values()) {
          if (other !== ws)
            send(other, {
              action: 'announce',
              info_hash: hash,
              peer_id: message.peer_id,
              offer_id: first.offer_id,
              offer: { type: 'offer', sdp: first.offer.sdp },
            });
        }
      } else if (message.answer && message.offer_id && message.to_peer_id) {
        const to = swarm.get(message.to_peer_id);
        if (to)
          send(to, {
            action: 'announce',
            info_hash: hash,
            peer_id: message.peer_id,
            offer_id: message.offer_id,
            answer: { type: 'answer', sdp: message.answer.sdp },
          });
      }
    });
    ws.once('close', () => {
      for (const key of joined) {
        const [hash = '', peer = ''] = key.split('\n');
        const swarm = swarms.get(hash);
        if (swarm?.get(peer) === ws) swarm.delete(peer);
        if (swarm?.size === 0) swarms.delete(hash);
      }
    });
  }

  /** Swarms and the peers in them, for the tests that check a closed socket leaves nothing. */
  const size = () => ({ swarms: swarms.size, peers: [...swarms.values()].reduce((sum, swarm) => sum + swarm.size, 0) });
  return { serve, size };
}
