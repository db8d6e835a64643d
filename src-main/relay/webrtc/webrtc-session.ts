import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { RTCPeerConnection, RTCRtpCodecParameters } from 'werift';
import { HttpError } from '../../platform/http/http-error';
import type { Codec, Media } from '../core/media';
import { CodecMismatchError, SourceUnavailableError, type Stream } from '../core/stream';
import type { TaskRegistry } from '../core/task-registry';
import { parseSdp, SdpError } from '../rtsp/sdp';
import { answerCodec, describeOffer, viewerRequests } from './offer-codecs';
import { WebrtcConsumer } from './webrtc-consumer';

/** ICE and DTLS must be up this long after the answer, or the session is dropped. */
const CONNECT_TIMEOUT_MS = 30_000;
/** Host candidates are known at once; this only bounds a stuck gathering. */
const GATHER_TIMEOUT_MS = 5_000;

export interface WebrtcSession {
  readonly id: string;
  /** The SDP answer, with every candidate in it (no trickle needed). */
  readonly answer: string;
  /** A candidate the viewer found after its offer went out (trickle ICE). */
  addRemoteCandidate(candidate: string, sdpMid?: string): Promise<void>;
  close(reason: string): void;
}

export interface OpenSessionOptions {
  stream: Stream;
  streamName: string;
  offer: string;
  request: IncomingMessage;
  tasks: TaskRegistry;
  /** Extra host addresses to offer (loopback, so viewers on this machine always connect). */
  hostAddresses: string[];
  onClosed(session: WebrtcSession): void;
}

function codecParameters(codec: Codec, kind: 'video' | 'audio'): RTCRtpCodecParameters {
  return new RTCRtpCodecParameters({
    mimeType: `${kind}/${codec.name === 'OPUS' ? 'opus' : codec.name}`,
    clockRate: codec.clockRate,
    payloadType: codec.payloadType,
    ...(codec.channels ? { channels: codec.channels } : {}),
    ...(codec.fmtp ? { parameters: codec.fmtp } : {}),
    rtcpFeedback: kind === 'video' ? [{ type: 'nack' }, { type: 'nack', parameter: 'pli' }] : [],
  });
}

/**
 * One browser watching a stream: the offer decides what it may get, the stream what it has; the
 * consumer is attached before the answer (so a codec mismatch is a 400 naming both sides), and
 * its packets flow once ICE and DTLS are up, starting with the cached GOP.
 */
export async function openWebrtcSession(options: OpenSessionOptions): Promise<WebrtcSession> {
  const { stream, request, tasks } = options;
  let offered: Media[];
  try {
    offered = parseSdp(options.offer, 'sendonly');
  } catch (error) {
    if (error instanceof SdpError) throw new HttpError(400, `the offer is not a usable SDP: ${error.message}`);
    throw error;
  }
  const requests = viewerRequests(offered);
  if (requests.length === 0) {
    throw new HttpError(400, `no codec of the offer can be sent: it offers ${describeOffer(offered)}; the relay sends video H264 (packetization-mode 1) or H265, audio OPUS, PCMA or PCMU`);
  }

  const id = randomUUID();
  let closed = false;
  let pc: RTCPeerConnection | undefined;
  let untrack = () => undefined as void;
  let timer: NodeJS.Timeout | undefined;
  const consumer = new WebrtcConsumer(
    requests,
    { remote: `${request.socket.remoteAddress}:${request.socket.remotePort}`, userAgent: request.headers['user-agent'] ?? '' },
    (reason) => session.close(reason),
  );
  const session: WebrtcSession = {
    id,
    answer: '',
    async addRemoteCandidate(candidate, sdpMid) {
      if (!pc || closed || candidate.trim() === '') return;
      await pc.addIceCandidate({ candidate: candidate.replace(/^a=/, ''), sdpMid: sdpMid ?? pc.getTransceivers()[0]?.mid ?? '0' });
    },
    close() {
      if (closed) return;
      closed = true;
      clearTimeout(timer);
      stream.removeConsumer(consumer);
      void pc?.close().catch(() => undefined);
      untrack();
      options.onClosed(session);
    },
  };

  try {
    await stream.addConsumer(consumer);
  } catch (error) {
    if (error instanceof CodecMismatchError) throw new HttpError(400, `${error.message} (the offer has ${describeOffer(offered)})`);
    if (error instanceof SourceUnavailableError) throw new HttpError(503, error.message);
    throw error;
  }
  untrack = tasks.add('consumer', `webrtc ${options.streamName} ${request.socket.remoteAddress}`);

  try {
    // One codec per kind, the offer's own entry: the answer then speaks the browser's payload types.
    const chosen = consumer.tracks.map((track) => {
      const media = offered.find((m) => m.kind === track.kind);
      return { track, codec: media ? answerCodec(media, track.source) : undefined };
    });
    const codecs: { video: RTCRtpCodecParameters[]; audio: RTCRtpCodecParameters[] } = { video: [], audio: [] };
    for (const { track, codec } of chosen) if (codec && codecs[track.kind].length === 0) codecs[track.kind].push(codecParameters(codec, track.kind));
    // An offered media the stream has nothing for is still answered (werift needs a codec to
    // answer with); no track is sent on it.
    for (const media of offered) if (codecs[media.kind].length === 0 && media.codecs[0]) codecs[media.kind].push(codecParameters(media.codecs[0], media.kind));
    pc = new RTCPeerConnection({ codecs, iceAdditionalHostAddresses: options.hostAddresses, iceUseIpv6: false });
    for (const { track, codec } of chosen) {
      if (!codec) continue;
      pc.addTransceiver(track.output, { direction: 'sendonly' });
      consumer.sendAs(track.output, codec.payloadType);
    }
    pc.connectionStateChange.subscribe((state) => {
      if (state === 'connected') {
        clearTimeout(timer);
        consumer.start();
      }
      if (state === 'failed' || state === 'closed') session.close(`peer connection ${state}`);
    });
    await pc.setRemoteDescription({ type: 'offer', sdp: options.offer });
    await pc.setLocalDescription(await pc.createAnswer());
    await gathered(pc);
    const answer = pc.localDescription?.sdp;
    if (!answer) throw new Error('no answer was made');
    timer = setTimeout(() => session.close('the viewer never connected'), CONNECT_TIMEOUT_MS);
    timer.unref();
    return { ...session, answer, addRemoteCandidate: session.addRemoteCandidate, close: session.close };
  } catch (error) {
    session.close('the offer could not be answered');
    throw new HttpError(400, `the offer could not be answered: ${(error as Error).message}`);
  }
}

function gathered(pc: RTCPeerConnection): Promise<void> {
  if (pc.iceGatheringState === 'complete') return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, GATHER_TIMEOUT_MS);
    pc.iceGatheringStateChange.subscribe((state) => {
      if (state !== 'complete') return;
      clearTimeout(timer);
      resolve();
    });
  });
}
