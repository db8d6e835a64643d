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

/** Parses an RTP packet (RFC 3550): CSRCs and header extensions are skipped, padding removed. */
export function parseRtpPacket(bytes: Uint8Array): RtpPacket {
  if (bytes.length < 12) throw new RtpParseError(`RTP packet too short: ${bytes.length} bytes`);
  const b0 = bytes[0]!;
  if (b0 >> 6 !== 2) throw new RtpParseError(`not RTP version 2 (version ${b0 >> 6})`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let offset = 12 + (b0 & 0x0f) * 4;
  if (b0 & 0x10) {
    if (bytes.length < offset + 4) throw new RtpParseError('RTP header extension truncated');
    offset += 4 + view.getUint16(offset + 2) * 4;
  }
  let end = bytes.length;
  if (b0 & 0x20) {
    const padding = bytes[bytes.length - 1]!;
    end -= padding;
  }
  if (offset > end) throw new RtpParseError('RTP header longer than the packet');
  return {
    marker: (bytes[1]! & 0x80) !== 0,
    payloadType: bytes[1]! & 0x7f,
    sequenceNumber: view.getUint16(2),
    timestamp: view.getUint32(4),
    ssrc: view.getUint32(8),
    payload: bytes.subarray(offset, end),
  };
}

export function serializeRtpPacket(packet: RtpPacket): Uint8Array {
  const out = new Uint8Array(12 + packet.payload.length);
  const view = new DataView(out.buffer);
  out[0] = 0x80;
  out[1] = (packet.marker ? 0x80 : 0) | (packet.payloadType & 0x7f);
  view.setUint16(2, packet.sequenceNumber & 0xffff);
  view.setUint32(4, packet.timestamp >>> 0);
  view.setUint32(8, packet.ssrc >>> 0);
  out.set(packet.payload, 12);
  return out;
}
