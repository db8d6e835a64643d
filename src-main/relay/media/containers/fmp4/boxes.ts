/**
 * ISO BMFF box building: every box is `size(32) type(4cc) payload`, full boxes add
 * `version(8) flags(24)`. Boxes are built bottom-up from byte arrays, which keeps each box's
 * layout readable next to the spec at the price of a few copies (init segments are small and a
 * live fragment holds a frame or two).
 */
import { concatBytes } from '../../codecs/bytes';

export { concatBytes as concat };

export function box(type: string, ...payload: Uint8Array[]): Uint8Array {
  const size = 8 + payload.reduce((n, p) => n + p.length, 0);
  if (size > 0xffffffff) throw new RangeError(`${type} box of ${size} bytes does not fit a 32-bit size`);
  return concatBytes([u32(size), fourcc(type), ...payload]);
}

export function fullBox(type: string, version: number, flags: number, ...payload: Uint8Array[]): Uint8Array {
  return box(type, Uint8Array.of(version, (flags >> 16) & 0xff, (flags >> 8) & 0xff, flags & 0xff), ...payload);
}

export function fourcc(type: string): Uint8Array {
  if (type.length !== 4) throw new Error(`box type "${type}" is not four characters`);
  return Uint8Array.from(type, (c) => c.charCodeAt(0));
}

export const u8 = (n: number): Uint8Array => Uint8Array.of(n & 0xff);
export const u16 = (n: number): Uint8Array => Uint8Array.of((n >> 8) & 0xff, n & 0xff);
export const u24 = (n: number): Uint8Array => Uint8Array.of((n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff);
export function u32(n: number): Uint8Array {
  const out = new Uint8Array(4);
  new DataView(out.buffer).setUint32(0, n >>> 0);
  return out;
}
export const zeros = (count: number): Uint8Array => new Uint8Array(count);

/** The unity transformation matrix of mvhd/tkhd (16.16 and 2.30 fixed point). */
export const UNITY_MATRIX = concatBytes([
  u32(0x00010000),
  u32(0),
  u32(0),
  u32(0),
  u32(0x00010000),
  u32(0),
  u32(0),
  u32(0),
  u32(0x40000000),
]);
