/** DTLS 1.2 record header (RFC 6347 4.1): type, version, epoch, 48-bit sequence number, length. */
const RECORD_HEADER = 13;
const HANDSHAKE = 22;

/**
 * Whether a datagram carries a handshake record of epoch 1 or later: the encrypted Finished
 * that ends a DTLS handshake (or a later renegotiation's messages, which follow one). The mux
 * watches for it among what a session's DTLS sends a viewer, because a DTLS server's Finished is
 * the last thing the viewer needs before it can decrypt SRTP.
 */
export function carriesDtlsFinished(datagram: Uint8Array): boolean {
  // One datagram may hold several records, each with its own header and length.
  let at = 0;
  while (at + RECORD_HEADER <= datagram.length) {
    const type = datagram[at]!;
    if (type < 20 || type > 63) return false;
    const epoch = (datagram[at + 3]! << 8) | datagram[at + 4]!;
    if (type === HANDSHAKE && epoch >= 1) return true;
    at += RECORD_HEADER + ((datagram[at + 11]! << 8) | datagram[at + 12]!);
  }
  return false;
}
