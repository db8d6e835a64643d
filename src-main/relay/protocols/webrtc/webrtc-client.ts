import type { RTCPeerConnection } from 'werift';
import { werift } from './werift-module';
import { WebSocket } from 'ws';
import { assertLearnedUrl } from '../../core/learned-url';
import type { Codec } from '../../core/media';
import type { DialContext, ProducerConnection } from '../../core/producer';
import type { TaskRegistry } from '../../core/task-registry';
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
    throw new Error(
      `not a webrtc: source: expected webrtc:http://host/path (WHEP) or webrtc:ws://host:1984/api/ws?src=name, got ${address || '(nothing)'}`,
    );
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
  // The session's resource is learned from the server: it is only ever an http(s) address.
  const resource = location ? assertLearnedUrl(new URL(location, target).href, `WHEP ${target.host}`, ['http', 'https']) : undefined;
  return { answer: body, end: () => void (resource && fetch(resource, { method: 'DELETE' }).catch(() => undefined)) };
}

/** go2rtc's WebSocket API: webrtc/offer out, webrtc/answer (and candidates) in; an error message fails the dial. */
function go2rtcSocket(
  target: URL,
  offer: string,
  signal: AbortSignal,
  onCandidate: (candidate: string) => void,
): Promise<{ answer: string; end(): void }> {
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
      if (message.type === 'webrtc/answer' && typeof message.value === 'string')
        resolve({ answer: message.value, end: () => socket.close() });
      else if (message.type === 'webrtc/candidate' && typeof message.value === 'string') onCandidate(message.value);
      else if (message.type === 'error') fail(new Error(`the server says: ${String(message.value)}`));
    });
  });
}

/** How a dial reaches the other side: the offer out, the answer back; `end` hangs the signalling up. */
type Signalling = (
  offer: string,
  signal: AbortSignal,
  onCandidate: (candidate: string) => void,
) => Promise<{ answer: string; end(): void }>;

export interface PeerDial {
  /** Names the peer in errors (`webrtc host`). */
  name: string;
  /** Names the source in the task list (`host/path`). */
  task: string;
  /** The producer's connection info. */
  remote: string;
  protocol: string;
  url: string;
  signalling: Signalling;
  /** Hang the signalling up once media flows (go2rtc's clients do; WHEP keeps its resource). */
  endOnConnect: boolean;
}

/**
 * Receives a stream from a WebRTC peer: an offer for video and audio (every candidate in it),
 * signalled as `dial.signalling` does, ICE and DTLS up within the timeout, then a producer.
 */
export async function dialWebrtcPeer(tasks: TaskRegistry, context: DialContext, dial: PeerDial): Promise<ProducerConnection> {
  const pc = new (werift().RTCPeerConnection)({
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
    const addCandidate = (candidate: string) =>
      void pc.addIceCandidate({ candidate: candidate.replace(/^a=/, ''), sdpMid: video.mid ?? '0' }).catch(() => undefined);
    const signalled = await dial.signalling(offer, abort, addCandidate);
    end = signalled.end;
    await pc.setRemoteDescription({ type: 'answer', sdp: signalled.answer });
    // A media the other side has nothing for comes back rejected (port 0) or inactive: not a track.
    const sections = signalled.answer.split(/\r?\n(?=m=)/).slice(1);
    const answered = (kind: string) =>
      sections.some((section) => section.startsWith(`m=${kind} `) && !/^m=\w+ 0 /.test(section) && !/^a=inactive/m.test(section));
    const medias = parseSdp(signalled.answer, 'recvonly').filter((media) => answered(media.kind));
    if (medias.length === 0) throw new Error('the answer has no audio or video');
    await connected(pc, abort);
    // The session lives on its peer connection from here.
    if (dial.endOnConnect) end();

    let finish: (error?: Error) => void = () => undefined;
    const closed = new Promise<Error | undefined>((resolve) => (finish = resolve));
    untrack = tasks.add('producer', `webrtc source ${dial.task}`);
    const producer = new WebrtcProducer(
      medias,
      medias.map((media) => (media.kind === 'video' ? video : audio)),
      { remote: dial.remote, userAgent: '', protocol: dial.protocol, url: dial.url },
      closed,
      () => {
        finish();
        end();
        untrack();
        void pc.close().catch(() => undefined);
      },
    );
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
    throw new Error(`${dial.name}: ${why}`);
  }
}

/** Dials `webrtc:` sources: WHEP or go2rtc's WebSocket API, as the URL says. */
export function createWebrtcDialer(tasks: TaskRegistry) {
  return (url: string, context: DialContext): Promise<ProducerConnection> => {
    const { target, signalling } = parseWebrtcSource(url);
    return dialWebrtcPeer(tasks, context, {
      name: `webrtc ${target.host}`,
      task: `${target.host}${target.pathname}`,
      remote: target.host,
      protocol: signalling,
      url,
      signalling: (offer, signal, onCandidate) =>
        signalling === 'whep' ? whep(target, offer, signal) : go2rtcSocket(target, offer, signal, onCandidate),
      endOnConnect: signalling === 'ws',
    });
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
