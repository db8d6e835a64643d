import { RTCPeerConnection } from 'werift';
import { WebSocket } from 'ws';
import type { Codec } from '../core/media';
import type { DialContext, ProducerConnection } from '../core/producer';
import type { TaskRegistry } from '../core/task-registry';
import { parseSdp } from '../rtsp/sdp';
import { codecParameters, iceGathered, onPeerGone } from './peer-helpers';
import { WebrtcProducer } from './webrtc-producer';

/** Signalling and ICE together must finish this soon, or the dial fails (and is retried like any source's). */
const DIAL_TIMEOUT_MS = 15_000;

/** What the relay asks another server for: everything its outputs pass through. */
const VIDEO: Codec[] = [
  { name: 'H264', clockRate: 90000, payloadType: 96, fmtp: 'level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=42e01f' },
  { name: 'H265', clockRate: 90000, payloadType: 98 },
  { name: 'VP8', clockRate: 90000, payloadType: 100 },
  { name: 'VP9', clockRate: 90000, payloadType: 101 },
];
const AUDIO: Codec[] = [
  { name: 'OPUS', clockRate: 48000, channels: 2, payloadType: 111 },
  { name: 'PCMA', clockRate: 8000, payloadType: 8 },
  { name: 'PCMU', clockRate: 8000, payloadType: 0 },
];

/**
 * `webrtc:` sources as go2rtc users write them: another server's WHEP endpoint
 * (`webrtc:http://host:1984/api/webrtc?src=cam`, `#format=whep` optional) or go2rtc's WebSocket
 * API (`webrtc:ws://host:1984/api/ws?src=cam`). Anything after `#` is a go2rtc option.
 */
export function parseWebrtcSource(url: string): { target: URL; signalling: 'whep' | 'ws' } {
  const [address = '', ...options] = url.replace(/^webrtc:/, '').split('#');
  let target: URL;
  try {
    target = new URL(address);
  } catch {
    throw new Error(`not a webrtc: source: expected webrtc:http://host/path (WHEP) or webrtc:ws://host:1984/api/ws?src=name, got ${address || '(nothing)'}`);
  }
  const format = options.find((option) => option.startsWith('format='))?.slice(7);
  if (format && format !== 'whep') throw new Error(`webrtc: format=${format} is not supported (WHEP and go2rtc's WebSocket API are)`);
  if (target.protocol === 'http:' || target.protocol === 'https:') return { target, signalling: 'whep' };
  if (target.protocol === 'ws:' || target.protocol === 'wss:') return { target, signalling: 'ws' };
  throw new Error(`webrtc: sources are http(s):// (WHEP) or ws(s):// (go2rtc), not ${target.protocol}`);
}

/** WHEP: the offer POSTed as application/sdp; the answer comes back with the session's Location. */
async function whep(target: URL, offer: string, signal: AbortSignal): Promise<{ answer: string; end(): void }> {
  const response = await fetch(target, { method: 'POST', headers: { 'Content-Type': 'application/sdp' }, body: offer, signal });
  const body = await response.text();
  if (response.status !== 201 && response.status !== 200) throw new Error(`WHEP answered ${response.status}: ${body.trim().slice(0, 200)}`);
  const location = response.headers.get('location');
  const resource = location ? new URL(location, target) : undefined;
  return { answer: body, end: () => void (resource && fetch(resource, { method: 'DELETE' }).catch(() => undefined)) };
}

/** go2rtc's WebSocket API: webrtc/offer out, webrtc/answer (and candidates) in; an error message fails the dial. */
function go2rtcSocket(target: URL, offer: string, signal: AbortSignal, onCandidate: (candidate: string) => void): Promise<{ answer: string; end(): void }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(target);
    const fail = (error: Error) => {
      socket.terminate();
      reject(error);
    };
    signal.addEventListener('abort', () => fail(new Error('dial aborted')), { once: true });
    socket.on('error', (error) => fail(new Error(`WebSocket ${target.host}: ${error.message}`)));
    socket.on('unexpected-response', (_request, response) => fail(new Error(`WebSocket ${target.host} answered ${response.statusCode}`)));
    socket.on('open', () => socket.send(JSON.stringify({ type: 'webrtc/offer', value: offer })));
    socket.on('message', (data) => {
      let message: { type?: string; value?: unknown };
      try {
        message = JSON.parse(data.toString()) as typeof message;
      } catch {
        return;
      }
      if (message.type === 'webrtc/answer' && typeof message.value === 'string') resolve({ answer: message.value, end: () => socket.close() });
      else if (message.type === 'webrtc/candidate' && typeof message.value === 'string') onCandidate(message.value);
      else if (message.type === 'error') fail(new Error(`the server says: ${String(message.value)}`));
    });
  });
}

/** Dials `webrtc:` sources: an offer to receive video and audio, signalled as the URL says, ICE up within the timeout. */
export function createWebrtcDialer(tasks: TaskRegistry) {
  return async (url: string, context: DialContext): Promise<ProducerConnection> => {
    const { target, signalling } = parseWebrtcSource(url);
    const pc = new RTCPeerConnection({
      codecs: { video: VIDEO.map((c) => codecParameters(c, 'video')), audio: AUDIO.map((c) => codecParameters(c, 'audio')) },
      iceUseIpv6: false,
      iceAdditionalHostAddresses: ['127.0.0.1'],
    });
    const video = pc.addTransceiver('video', { direction: 'recvonly' });
    const audio = pc.addTransceiver('audio', { direction: 'recvonly' });
    const abort = AbortSignal.any([context.signal, AbortSignal.timeout(DIAL_TIMEOUT_MS)]);
    let untrack = () => undefined as void;
    let end = () => undefined as void;
    try {
      await pc.setLocalDescription(await pc.createOffer());
      await iceGathered(pc);
      const offer = pc.localDescription!.sdp;
      const addCandidate = (candidate: string) => void pc.addIceCandidate({ candidate: candidate.replace(/^a=/, ''), sdpMid: video.mid ?? '0' }).catch(() => undefined);
      const signalled = signalling === 'whep' ? await whep(target, offer, abort) : await go2rtcSocket(target, offer, abort, addCandidate);
      end = signalled.end;
      await pc.setRemoteDescription({ type: 'answer', sdp: signalled.answer });
      const medias = parseSdp(signalled.answer, 'recvonly');
      if (medias.length === 0) throw new Error('the answer has no audio or video');
      await connected(pc, abort);
      // go2rtc's own client hangs up the socket once media flows; the session lives on its peer connection.
      if (signalling === 'ws') end();

      let finish: (error?: Error) => void = () => undefined;
      const closed = new Promise<Error | undefined>((resolve) => (finish = resolve));
      untrack = tasks.add('producer', `webrtc source ${target.host}${target.pathname}`);
      const producer = new WebrtcProducer(medias, [video, audio].slice(0, medias.length), { remote: target.host, userAgent: '', protocol: signalling, url }, closed, () => {
        finish();
        end();
        untrack();
        void pc.close().catch(() => undefined);
      });
      onPeerGone(pc, (why) => {
        finish(new Error(`the server's peer connection ended: ${why}`));
        untrack();
        void pc.close().catch(() => undefined);
      });
      return producer;
    } catch (error) {
      end();
      untrack();
      void pc.close().catch(() => undefined);
      const why = abort.aborted && !context.signal.aborted ? `no media within ${DIAL_TIMEOUT_MS / 1000} s` : (error as Error).message;
      throw new Error(`webrtc ${target.host}: ${why}`);
    }
  };
}

function connected(pc: RTCPeerConnection, signal: AbortSignal): Promise<void> {
  if (pc.connectionState === 'connected') return Promise.resolve();
  return new Promise((resolve, reject) => {
    signal.addEventListener('abort', () => reject(new Error('ICE did not connect')), { once: true });
    pc.connectionStateChange.subscribe((state) => {
      if (state === 'connected') resolve();
      if (state === 'failed' || state === 'closed') reject(new Error(`peer connection ${state}`));
    });
  });
}
