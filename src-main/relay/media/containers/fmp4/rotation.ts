import { concat, u32 } from './boxes';

/** Turns players apply to a video track, clockwise in degrees (go2rtc's `rotate`). */
export type Rotation = 0 | 90 | 180 | 270;

export const ROTATIONS: readonly Rotation[] = [0, 90, 180, 270];

/** cos and sin of each turn. */
const COS_SIN: Record<Rotation, [number, number]> = { 0: [1, 0], 90: [0, 1], 180: [-1, 0], 270: [0, -1] };

/** -1, 0 or 1 in 16.16 fixed point. */
const fixed = (n: number): Uint8Array => u32(n === 1 ? 0x00010000 : n === -1 ? 0xffff0000 : 0);

/**
 * The tkhd transformation matrix {a b u, c d v, x y w} that turns the picture by `degrees`
 * clockwise: a = d = cos, b = sin, c = -sin (ISO 14496-12 8.3.2; players read it as the
 * display matrix). Width and height stay those of the coded picture, as go2rtc writes them.
 */
export function rotationMatrix(degrees: Rotation): Uint8Array {
  const [cos, sin] = COS_SIN[degrees];
  return concat([fixed(cos), fixed(sin), u32(0), fixed(-sin), fixed(cos), u32(0), u32(0), u32(0), u32(0x40000000)]);
}
