import type { RTCPeerConnection } from 'werift';
import { loadRelayNative, type RelayNative } from '../../../native/native-addon';
import { SRTP_AEAD_AES_128_GCM, SRTP_AES128_CM_HMAC_SHA1_80 } from './srtp-keys';

/**
 * The SRTP profiles the relay offers a viewer's DTLS handshake, its favourite first: with the
 * native addon AEAD_AES_128_GCM (one pass of AES-GCM costs about half of AES-CM and HMAC-SHA1
 * there), then AES_CM_128_HMAC_SHA1_80, which every WebRTC endpoint must implement (RFC 8827
 * 6.5); without the addon AES-CM only, which JavaScript protects in batches at about two thirds
 * of AES-GCM's cost (GCM needs a cipher object per packet in Node's crypto). The relay answers
 * browsers as DTLS server (`dtls-server-role.ts`), so it picks from what the viewer offers.
 */
export function viewerSrtpProfiles(native: RelayNative | undefined): number[] {
  return native?.srtpGcm ? [SRTP_AEAD_AES_128_GCM, SRTP_AES128_CM_HMAC_SHA1_80] : [SRTP_AES128_CM_HMAC_SHA1_80];
}

/**
 * Makes a viewer's DTLS handshake choose from `viewerSrtpProfiles`: as DTLS server (what the
 * relay answers browsers' `actpass` offers as) werift picks the first of this list the client
 * offered; as client (an offer that took the server role) the relay offers only those and the
 * viewer picks its favourite among them. Called once the answer is made, before ICE can connect.
 */
export function useViewerSrtpProfiles(pc: RTCPeerConnection, native: RelayNative | undefined = loadRelayNative()): void {
  const profiles = viewerSrtpProfiles(native);
  for (const transport of new Set(pc.getTransceivers().map((t) => t.dtlsTransport))) {
    // werift keeps the list private, and reads it when the handshake starts.
    if (transport) (transport as unknown as { srtpProfiles: number[] }).srtpProfiles = [...profiles];
  }
}
