import type { RTCPeerConnection } from 'werift';

/**
 * Whether the offer leaves the DTLS role to the answerer: `a=setup:actpass` on every line that
 * names a role (RFC 5763 5), as browsers' and werift's offers do. An offer without one, or one
 * that takes a role itself, is answered as it asks.
 */
export function offerLeavesDtlsRole(offer: string): boolean {
  const roles = [...offer.matchAll(/^a=setup:(\S+)/gm)].map((match) => match[1]!.toLowerCase());
  return roles.length > 0 && roles.every((role) => role === 'actpass');
}

/**
 * Answers an offer that leaves the role open as DTLS server (`a=setup:passive`): the server picks
 * the SRTP profile (RFC 5764 4.1.2), and as server Chromium keeps AES-CM first, which costs the
 * relay about twice AES-GCM per packet, while its ClientHello offers AES-GCM too. werift as
 * server takes the relay's favourite the viewer offered (`viewer-srtp-profile.ts`). As server
 * the relay is up before the viewer has its keys: see `finished-gate.ts`. Called after the offer
 * is set, before the answer is made.
 */
export function answerAsDtlsServer(pc: RTCPeerConnection, offer: string): void {
  if (!offerLeavesDtlsRole(offer)) return;
  for (const transport of new Set(pc.getTransceivers().map((t) => t.dtlsTransport))) {
    if (!transport || transport.role !== 'auto') continue;
    transport.role = 'server';
  }
}
