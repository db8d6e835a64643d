import { WebSocket } from 'ws';
import type { DialContext, ProducerConnection } from '../../core/producer';
import type { TaskRegistry } from '../../core/task-registry';
import { dialWebrtcPeer } from '../webrtc/webrtc-client';
import { offerNonce, shareCipher, shareInfoHash } from './share-cipher';
import { newPeerId, parseTrackerMessage } from './tracker-messages';

export const MIN_SHARE_LENGTH = 8;
/** A pwd seals every offer and answer of a share: shorter ones are guessed offline from one captured offer. */
export const MIN_PWD_LENGTH = 8;

/** `webtorrent:?share=<name>&pwd=<password>`, as go2rtc writes it. */
export function parseWebtorrentSource(url: string): { share: string; pwd: string } {
  const query = new URLSearchParams(url.replace(/^webtorrent:/, '').replace(/^[^?]*\?/, ''));
  const share = query.get('share') ?? '';
  const pwd = query.get('pwd') ?? '';
  if (share.length < MIN_SHARE_LENGTH || pwd.length < MIN_PWD_LENGTH) {
    throw new Error(`webtorrent: expected webtorrent:?share=<at least ${MIN_SHARE_LENGTH} characters>&pwd=<at least ${MIN_PWD_LENGTH}>`);
  }
  return { share, pwd };
}

/**
 * Signalling through the tracker: the offer, sealed with the share's pwd, announced under the
 * share's hash; the sharing relay's answer comes back sealed the same way. A wrong pwd gets no
 * answer (the sharer cannot open the offer), so the dial ends at its timeout.
 */
function trackerSignalling(tracker: string, share: string, pwd: string) {
  return (offer: string, signal: AbortSignal): Promise<{ answer: string; end(): void }> =>
    new Promise((resolve, reject) => {
      const nonce = offerNonce();
      const cipher = shareCipher(share, pwd, nonce);
      const ws = new WebSocket(tracker, { handshakeTimeout: 10_000 });
      const fail = (error: Error) => {
        ws.terminate();
        reject(error);
      };
      signal.addEventListener(
        'abort',
        () => fail(new Error(`no answer from the share through ${new URL(tracker).host} (a wrong share or pwd, or the sharer is offline)`)),
        { once: true },
      );
      ws.on('error', (error) => fail(new Error(`tracker ${tracker}: ${error.message}`)));
      ws.on('unexpected-response', (_request, response) => fail(new Error(`tracker ${tracker} answered ${response.statusCode}`)));
      ws.on('open', () =>
        ws.send(
          JSON.stringify({
            action: 'announce',
            info_hash: shareInfoHash(share),
            peer_id: newPeerId(),
            offers: [{ offer_id: nonce, offer: { type: 'offer', sdp: cipher.seal(offer) } }],
            numwant: 1,
          }),
        ),
      );
      ws.on('message', (data) => {
        const message = parseTrackerMessage(data);
        if (!message?.answer?.sdp || message.offer_id !== nonce) return;
        try {
          resolve({ answer: cipher.open(message.answer.sdp), end: () => ws.close() });
        } catch (error) {
          fail(error as Error);
        }
      });
    });
}

/** Dials a share of another relay through the tracker and plays it over WebRTC. */
export function dialWebtorrent(tasks: TaskRegistry, tracker: string, url: string, context: DialContext): Promise<ProducerConnection> {
  const { share, pwd } = parseWebtorrentSource(url);
  return dialWebrtcPeer(tasks, context, {
    name: `webtorrent ${share}`,
    task: `webtorrent share ${share}`,
    remote: new URL(tracker).host,
    protocol: 'ws',
    url: `webtorrent:?share=${share}`,
    signalling: trackerSignalling(tracker, share, pwd),
    endOnConnect: true,
  });
}
