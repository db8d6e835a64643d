import { WRAP_33 } from './ts-packetizer';

export const STREAM_ID_VIDEO = 0xe0;
export const STREAM_ID_AUDIO = 0xc0;

/**
 * A PES packet: start code, stream id, length, and the optional header with a PTS (and a DTS
 * when it differs). Video PES longer than 65535 bytes say length 0 ("unbounded"), as MPEG-TS
 * allows for video only.
 */
export function pesPacket(streamId: number, payload: Uint8Array, pts: number, dts = pts): Uint8Array {
  const withDts = dts !== pts;
  const headerData = withDts ? 10 : 5;
  const out = new Uint8Array(9 + headerData + payload.length);
  const length = 3 + headerData + payload.length;
  out.set([0x00, 0x00, 0x01, streamId]);
  const bounded = length <= 0xffff && streamId !== STREAM_ID_VIDEO;
  out[4] = bounded ? length >> 8 : 0;
  out[5] = bounded ? length & 0xff : 0;
  out[6] = 0x80; // '10' marker, no scrambling, no priority, not aligned, no copyright, copy
  out[7] = withDts ? 0xc0 : 0x80;
  out[8] = headerData;
  writeTimestamp(out, 9, withDts ? 0x3 : 0x2, pts);
  if (withDts) writeTimestamp(out, 14, 0x1, dts);
  out.set(payload, 9 + headerData);
  return out;
}

/** A 33-bit PTS/DTS in its 5-byte form: a 4-bit prefix, then 3+15+15 bits each closed by a marker bit. */
function writeTimestamp(out: Uint8Array, offset: number, prefix: number, time: number): void {
  const t = ((Math.round(time) % WRAP_33) + WRAP_33) % WRAP_33;
  const top = Math.floor(t / 2 ** 30); // bits 32..30
  const low = t % 2 ** 30; // bits 29..0 fit a 32-bit integer
  out[offset] = (prefix << 4) | (top << 1) | 1;
  out[offset + 1] = (low >>> 22) & 0xff;
  out[offset + 2] = (((low >>> 15) & 0x7f) << 1) | 1;
  out[offset + 3] = (low >>> 7) & 0xff;
  out[offset + 4] = ((low & 0x7f) << 1) | 1;
}
