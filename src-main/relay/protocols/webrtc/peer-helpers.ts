import type { RTCPeerConnection, RTCRtpCodecParameters } from 'werift';
import { werift } from './werift-module';
import { HttpError } from '@main/platform/http/http-error';
import type { Codec, Media } from '../../core/media';
import { parseSdp, SdpError } from '../rtsp/sdp';

/** Host candidates are known at once; this only bounds a stuck gathering. */
const GATHER_TIMEOUT_MS = 5_000;
/** ICE and DTLS must be up this long after the answer, or the session is dropped. */
export const CONNECT_TIMEOUT_MS = 30_000;

/** A codec of the relay's model as werift configures it: the offer's payload type and fmtp, NACK and PLI for video. */
export function codecParameters(codec: Codec, kind: 'video' | 'audio'): RTCRtpCodecParameters {
  return new (werift().RTCRtpCodecParameters)({
    mimeType: `${kind}/${codec.name === 'OPUS' ? 'opus' : codec.name}`,
    clockRate: codec.clockRate,
    payloadType: codec.payloadType,
    ...(codec.channels ? { channels: codec.channels } : {}),
    ...(codec.fmtp ? { parameters: codec.fmtp } : {}),
    rtcpFeedback: kind === 'video' ? [{ type: 'nack' }, { type: 'nack', parameter: 'pli' }] : [],
  });
}

/** Resolves when werift has gathered its candidates (they all go in the answer). */
export function iceGathered(pc: RTCPeerConnection): Promise<void> {
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

/**
 * Calls `gone` once when the peer is: the connection failed or closed, or a DTLS transport got
 * the peer's close alert (a browser's `pc.close()`), which werift does not always carry up to
 * the connection state.
 */
export function onPeerGone(pc: RTCPeerConnection, gone: (why: string) => void): void {
  let told = false;
  const tell = (why: string) => {
    if (told) return;
    told = true;
    gone(why);
  };
  pc.connectionStateChange.subscribe((state) => {
    if (state === 'failed' || state === 'closed') tell(`peer connection ${state}`);
  });
  for (const transport of new Set(pc.getTransceivers().map((t) => t.dtlsTransport))) {
    transport?.onStateChange.subscribe((state) => {
      if (state === 'failed' || state === 'closed') tell(`DTLS ${state}`);
    });
  }
}

/**
 * As the DTLS client (the relay's role when the offer took the server's), sends the first flight as
 * soon as ICE is up: werift waits 100 ms before it, which was a third of a viewer's wait for the
 * first picture. Browsers keep a ClientHello that comes early. werift's own later call to
 * `connect` is made a no-op on this connection, so the handshake starts once. Called once the
 * answer is made (the roles are known then).
 */
export function startDtlsAtOnce(pc: RTCPeerConnection): void {
  for (const transport of new Set(pc.getTransceivers().map((t) => t.dtlsTransport))) {
    if (!transport) continue;
    const { unSubscribe } = transport.onStateChange.subscribe((state) => {
      if (state !== 'connecting') return;
      unSubscribe();
      // werift makes its DTLS client right after this state change, before its wait.
      queueMicrotask(() => {
        const client = transport.dtls;
        if (!client || !(client instanceof werift().DtlsClient)) return;
        const connect = client.connect.bind(client);
        client.connect = () => Promise.resolve();
        // A failed handshake surfaces through werift's own error handling; the session's
        // connect timeout ends what never connects.
        connect().catch(() => undefined);
      });
    });
  }
}

/** The offer's medias as the relay sees its own side of them; an SDP that is not one is a 400 saying why. */
export function parseOffer(offer: string, relaySide: 'sendonly' | 'recvonly'): Media[] {
  try {
    return parseSdp(offer, relaySide);
  } catch (error) {
    if (error instanceof SdpError) throw new HttpError(400, `the offer is not a usable SDP: ${error.message}`);
    throw error;
  }
}
