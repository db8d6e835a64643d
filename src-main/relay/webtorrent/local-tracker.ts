import type { WebSocket } from 'ws';
import { parseTrackerMessage } from './tracker-messages';

const MAX_PEERS_PER_HASH = 64;

/**
 * A WebTorrent tracker small enough to run inside the relay (go2rtc serves one on
 * /api/webtorrent for the same reason): peers announce a hash; an offer is passed to the other
 * peers of that hash, an answer to the peer it is for. It sees only hashes and sealed SDP.
 */
export function createLocalTracker() {
  const swarms = new Map<string, Map<string, WebSocket>>();
  const send = (ws: WebSocket, message: object) => {
    if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(message));
  };

  function serve(ws: WebSocket): void {
    const joined = new Set<string>();
    ws.on('message', (data) => {
      const message = parseTrackerMessage(data);
      if (!message || message.action !== 'announce' || !message.info_hash || !message.peer_id) return;
      const hash = message.info_hash;
      const swarm = swarms.get(hash) ?? swarms.set(hash, new Map()).get(hash)!;
      if (!swarm.has(message.peer_id) && swarm.size >= MAX_PEERS_PER_HASH) return;
      swarm.set(message.peer_id, ws);
      joined.add(`${hash}\n${message.peer_id}`);

      if (message.offers) {
        send(ws, { action: 'announce', interval: 120, info_hash: hash, complete: 0, incomplete: swarm.size });
        const first = message.offers[0];
        if (!first?.offer_id || first.offer?.type !== 'offer' || !first.offer.sdp) return;
        for (const other of swarm.values()) {
          if (other !== ws) send(other, { action: 'announce', info_hash: hash, peer_id: message.peer_id, offer_id: first.offer_id, offer: { type: 'offer', sdp: first.offer.sdp } });
        }
      } else if (message.answer && message.offer_id && message.to_peer_id) {
        const to = swarm.get(message.to_peer_id);
        if (to) send(to, { action: 'announce', info_hash: hash, peer_id: message.peer_id, offer_id: message.offer_id, answer: { type: 'answer', sdp: message.answer.sdp } });
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

  return { serve };
}
