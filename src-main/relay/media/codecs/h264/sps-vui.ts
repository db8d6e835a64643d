import type { BitReader } from '../bit-reader';

/** What the VUI of an H.264 SPS says about timing and reordering (Annex E.1.1). */
export interface H264Vui {
  /** A frame's duration in 90 kHz ticks, from timing_info (only believed for 1 to 240 fps). */
  frameDuration?: number;
  /** bitstream_restriction's max_num_reorder_frames (x264 writes it): 0 means no B-frames. */
  maxNumReorderFrames?: number;
}

/** hrd_parameters() of Annex E.1.2: nothing in it matters here. */
function skipHrd(reader: BitReader): void {
  const count = reader.ue() + 1;
  reader.skip(8); // bit_rate_scale, cpb_size_scale
  for (let i = 0; i < count; i++) {
    reader.ue();
    reader.ue();
    reader.skip(1);
  }
  reader.skip(20); // four 5-bit lengths
}

/** Reads vui_parameters() from a reader standing at its start (after vui_parameters_present_flag). */
export function readH264Vui(reader: BitReader): H264Vui {
  const vui: H264Vui = {};
  if (reader.flag() && reader.u(8) === 255) reader.skip(32); // aspect ratio, extended SAR
  if (reader.flag()) reader.skip(1); // overscan
  if (reader.flag()) {
    reader.skip(4);
    if (reader.flag()) reader.skip(24); // colour description
  }
  if (reader.flag()) {
    reader.ue(); // chroma sample locations
    reader.ue();
  }
  if (reader.flag()) {
    const unitsInTick = reader.u(32);
    const timeScale = reader.u(32);
    reader.skip(1);
    // A tick is a field: a frame is two (E.2.1).
    const ticks = timeScale > 0 ? Math.round((2 * unitsInTick * 90000) / timeScale) : 0;
    if (ticks >= 375 && ticks <= 90000) vui.frameDuration = ticks;
  }
  const nalHrd = reader.flag();
  if (nalHrd) skipHrd(reader);
  const vclHrd = reader.flag();
  if (vclHrd) skipHrd(reader);
  if (nalHrd || vclHrd) reader.skip(1); // low_delay_hrd_flag
  reader.skip(1); // pic_struct_present_flag
  if (!reader.flag()) return vui; // no bitstream_restriction
  reader.skip(1); // motion_vectors_over_pic_boundaries_flag
  for (let i = 0; i < 4; i++) reader.ue(); // bytes/bits per mb, log2 max mv lengths
  vui.maxNumReorderFrames = reader.ue();
  return vui;
}
