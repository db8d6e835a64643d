import type { CandidatePair, RTCDtlsTransport, RTCRtpSender } from 'werift';
import type { DirectSend } from '../ice/udp-mux';
import { readViewerFeedback, type ViewerFeedback } from '../viewer-feedback';
import { SrtcpUnprotector } from './srtcp-unprotect';
import { SrtpProtector, type Datagram } from './srtp-protect';
import { SrtpTrackSender, type DatagramPath } from './srtp-track-sender';

/**
 * A datagram path that skips werift's socket: given the loopback port werift's ICE agent sees
 * a viewer at (the shared port's bridge for it), what sends straight from the shared port to
 * the viewer, or undefined when no such address is bridged.
 */
export type DirectPath = (loopbackPort: number) => DirectSend | undefined;

/**
 * Where a viewer's SRTP goes: the ICE pair the viewer nominated, straight from the shared UDP
 * port when there is one (one send instead of werift's send to loopback, the bridge's receive and
 * its send on; a batch in one system call with the native sender), else through werift's ICE
 * connection (ICE-TCP, or a port of the session's own).
 */
function mediaPath(transport: RTCDtlsTransport, direct?: DirectPath): DatagramPath {
  const connection = transport.iceTransport.connection;
  let pair: CandidatePair | undefined;
  let route: DirectSend | undefined;
  /** The direct route to the nominated pair, looked up again when the pair changes. */
  const directRoute = (): DirectSend | undefined => {
    const nominated = connection.nominated;
    if (nominated !== pair) {
      pair = nominated;
      route = nominated?.protocol.type === 'stun' ? direct?.(nominated.remoteAddr[1]) : undefined;
    }
    return route;
  };
  /** The bridge for that address closed: werift's path for now, look again next time. */
  const lost = () => {
    pair = undefined;
    route = undefined;
  };
  // Never `sent`: werift's send may hold the datagram's bytes for as long as it likes.
  const throughWerift = (datagram: Datagram) => {
    if (!connection.nominated) return;
    void connection.send(Array.isArray(datagram) ? Buffer.concat(datagram) : datagram).catch(() => undefined);
  };
  return {
    one: (datagram, sent) => {
      if (directRoute()?.send(datagram, sent)) return;
      lost();
      throughWerift(datagram);
    },
    all: (datagrams, sent) => {
      if (directRoute()?.sendAll(datagrams, sent)) return;
      lost();
      for (const datagram of datagrams) throughWerift(datagram);
    },
    fanout: () => directRoute()?.fanout,
  };
}

/**
 * The relay's own sender for a werift sender whose DTLS is up: the SSRC werift announced in
 * the answer, the SRTP keys its DTLS handshake exported (RFC 5764 4.2) and the profile it chose.
 * werift keeps signalling, ICE, DTLS and what the viewer sends back (receiver reports, NACK,
 * PLI); media no longer goes through its sender.
 */
export function trackSender(sender: RTCRtpSender, payloadType: number, clockRate: number, direct?: DirectPath): SrtpTrackSender {
  const transport = sender.dtlsTransport;
  const { keys, profile } = transport.srtp.config;
  const protector = SrtpProtector.fromMaster(profile, keys.localMasterKey, keys.localMasterSalt);
  // werift names the source in the answer's a=ssrc cname; the sender reports say the same.
  const cname = (sender as unknown as { cname?: string }).cname ?? '';
  return new SrtpTrackSender(
    sender.ssrc,
    payloadType,
    clockRate,
    protector,
    mediaPath(transport, direct),
    cname.slice(0, 255),
    undefined,
    sender.kind === 'video',
  );
}

/**
 * Reads the viewer's SRTCP in the relay once DTLS is up, with the keys werift's handshake
 * exported for the viewer's side: werift's own path (its socket, SRTCP in JavaScript with a
 * cipher and an HMAC set up per packet, its RTCP objects) cost more than all the viewer's media
 * sends. What is not authentic, replayed or malformed is dropped here, as werift would. For the
 * AEAD profiles without the native addon werift reads it as before (undefined).
 */
export function viewerRtcpReader(
  transport: RTCDtlsTransport,
  feedback: (items: ViewerFeedback[]) => void,
): ((datagram: Buffer) => boolean) | undefined {
  const { keys, profile } = transport.srtp.config;
  const unprotector = SrtcpUnprotector.fromMaster(profile, keys.remoteMasterKey, keys.remoteMasterSalt);
  if (!unprotector) return undefined;
  return (datagram) => {
    const packet = unprotector.unprotect(datagram);
    if (!packet) return true;
    let items: ViewerFeedback[];
    try {
      items = readViewerFeedback(packet);
    } catch {
      return true;
    }
    feedback(items);
    return true;
  };
}
