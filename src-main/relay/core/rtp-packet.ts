/** An RTP packet as the relay fans it out: the fixed header fields and the payload. */
export interface RtpPacket {
  marker: boolean;
  payloadType: number;
  sequenceNumber: number;
  timestamp: number;
  ssrc: number;
  payload: Uint8Array;
}

export class RtpParseError extends Error {
  override name = 'RtpParseError';
}

const uint32At = (bytes: Uint8Array, at: number) =>
  ((bytes[at]! << 24) | (bytes[at + 1]! << 16) | (bytes[at + 2]! << 8) | bytes[at + 3]!) >>> 0;

/**
 * Parses an RTP packet (RFC 3550): CSRCs and header extensions are skipped, padding removed.
 * The packet is `bytes[start, end)` (an interleaved frame where it lies in a read); its payload
 * is a view of those bytes. `buffer` is `bytes.buffer`, for a caller that parses many packets
 * of one read (the getter is a call into the engine each time).
 */
export function parseRtpPacket(bytes: Uint8Array, start = 0, end = bytes.length, buffer: ArrayBufferLike = bytes.buffer): RtpPacket {
  const length = end - start;
  if (length < 12) throw new RtpParseError(`RTP packet too short: ${length} bytes`);
  const b0 = bytes[start]!;
  if (b0 >> 6 !== 2) throw new RtpParseError(`not RTP version 2 (version ${b0 >> 6})`);
  // Fields read byte by byte: a DataView per packet was an object made and dropped each time.
  let offset = start + 12 + (b0 & 0x0f) * 4;
  if (b0 & 0x10) {
    if (end < offset + 4) throw new RtpParseError('RTP header extension truncated');
    offset += 4 + ((bytes[offset + 2]! << 8) | bytes[offset + 3]!) * 4;
  }
  let payloadEnd = end;
  if (b0 & 0x20) payloadEnd -= bytes[end - 1]!;
  if (offset > payloadEnd) throw new RtpParseError('RTP header longer than the packet');
  return {
    marker: (bytes[start + 1]! & 0x80) !== 0,
    payloadType: bytes[start + 1]! & 0x7f,
    sequenceNumber: (bytes[start + 2]! << 8) | bytes[start + 3]!,
    timestamp: uint32At(bytes, start + 4),
    ssrc: uint32At(bytes, start + 8),
    // A plain view, not Buffer's subarray: made for every packet, and Buffer's goes through its
    // own constructor for nothing the relay uses.
    payload: new Uint8Array(buffer, bytes.byteOffset + offset, payloadEnd - offset),
  };
}

/**
 * The packet's bytes: a 12-byte header and the payload, `prefix` bytes left free in front (an
 * RTSP interleaved header). `payloadType` and `ssrc` replace the packet's own, so callers that
 * send one packet under another number need no copy of it.
 */
export function serializeRtpPacket(packet: RtpPacket, payloadType = packet.payloadType, ssrc = packet.ssrc, prefix = 0): Buffer {
  const out = Buffer.allocUnsafe(prefix + 12 + packet.payload.length);
  writeRtpHeader(out, prefix, packet, payloadType, ssrc);
  out.set(packet.payload, prefix + 12);
  return out;
}

/**
 * The packet's 12-byte header alone, for a send that gathers it with the payload (a UDP
 * viewer's datagram): each viewer has its own SSRC, and the payload is shared, not copied.
 */
export function rtpHeader(packet: RtpPacket, payloadType: number, ssrc: number): Buffer {
  const out = Buffer.allocUnsafe(12);
  writeRtpHeader(out, 0, packet, payloadType, ssrc);
  return out;
}

function writeRtpHeader(out: Buffer, at: number, packet: RtpPacket, payloadType: number, ssrc: number): void {
  out[at] = 0x80;
  out[at + 1] = (packet.marker ? 0x80 : 0) | (payloadType & 0x7f);
  out.writeUInt16BE(packet.sequenceNumber & 0xffff, at + 2);
  out.writeUInt32BE(packet.timestamp >>> 0, at + 4);
  out.writeUInt32BE(ssrc >>> 0, at + 8);
}
