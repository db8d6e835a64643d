import type { CandidatePair, RTCDtlsTransport, RTCRtpSender } from 'werift';
import { SrtpProtector, type Datagram } from './srtp-protect';
import { SrtpTrackSender, type Transmit } from './srtp-track-sender';

/**
 * A datagram path that skips werift's socket: given the loopback port werift's ICE agent sees
 * a viewer at (the shared port's bridge for it), sends straight from the shared port to the
 * viewer (calling `sent` once the socket has sent it), or returns false once that viewer
 * address is gone.
 */
export type DirectPath = (loopbackPort: number) => ((datagram: Datagram, sent?: () => void) => boolean) | undefined;

/**
 * Where a viewer's SRTP goes: the ICE pair the viewer nominated, straight from the shared UDP
 * port when there is one (one send instead of werift's send to loopback, the bridge's receive and
 * its send on), else through werift's ICE connection (ICE-TCP, or a port of the session's own).
 */
function mediaPath(transport: RTCDtlsTransport, direct?: DirectPath): Transmit {
  const connection = transport.iceTransport.connection;
  let pair: CandidatePair | undefined;
  let send: ReturnType<DirectPath>;
  return (datagram, sent) => {
    const nominated = connection.nominated;
    if (!nominated) return;
    if (nominated !== pair) {
      pair = nominated;
      send = nominated.protocol.type === 'stun' ? direct?.(nominated.remoteAddr[1]) : undefined;
    }
    if (send) {
      if (send(datagram, sent)) return;
      // The bridge for that address closed: werift's path for this packet, look again for the next.
      pair = undefined;
      send = undefined;
    }
    // Never `sent`: werift's send may hold the datagram's bytes for as long as it likes.
    void connection.send(Array.isArray(datagram) ? Buffer.concat(datagram) : datagram).catch(() => undefined);
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
  return new SrtpTrackSender(sender.ssrc, payloadType, clockRate, protector, mediaPath(transport, direct), cname.slice(0, 255));
}
