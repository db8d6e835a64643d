import type { RTCPeerConnection } from 'werift';
import { SRTP_AES128_CM_HMAC_SHA1_80 } from './srtp-keys';

/**
 * Makes a viewer's DTLS handshake settle on AES_CM_128_HMAC_SHA1_80, the profile every WebRTC
 * endpoint must implement (RFC 8827 6.5), which the relay protects in batches at about two
 * thirds of AES-GCM's cost a packet (GCM needs a cipher object per packet in Node's crypto).
 * As DTLS client the relay offers only it (the browser, as server, would pick its own favourite,
 * GCM); as server werift picks the first of this list the client offered. Called once the
 * answer is made, before ICE can connect.
 */
export function sendAesCmOnly(pc: RTCPeerConnection): void {
  for (const transport of new Set(pc.getTransceivers().map((t) => t.dtlsTransport))) {
    // werift keeps the list private, and reads it when the handshake starts.
    if (transport) (transport as unknown as { srtpProfiles: number[] }).srtpProfiles = [SRTP_AES128_CM_HMAC_SHA1_80];
  }
}
