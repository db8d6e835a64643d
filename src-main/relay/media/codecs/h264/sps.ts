import { BitReader, unescapeRbsp } from '../bit-reader';
import { readH264Vui, type H264Vui } from './sps-vui';

export interface H264Sps {
  profileIdc: number;
  levelIdc: number;
  /** `High`, `Main`, `Baseline`, ... as stats show it. */
  profile: string;
  /** `3.1` */
  level: string;
  width: number;
  height: number;
  /** Timing and reordering from the VUI, when the SPS has one that could be read. */
  vui?: H264Vui;
}

class SpsError extends Error {
  override name = 'SpsError';
}

const PROFILES: Record<number, string> = {
  66: 'Baseline',
  77: 'Main',
  88: 'Extended',
  100: 'High',
  110: 'High 10',
  122: 'High 4:2:2',
  244: 'High 4:4:4 Predictive',
  44: 'CAVLC 4:4:4 Intra',
};

function skipScalingList(reader: BitReader, size: number): void {
  let last = 8;
  let next = 8;
  for (let j = 0; j < size; j++) {
    if (next !== 0) next = (last + reader.se() + 256) % 256;
    last = next === 0 ? last : next;
  }
}

/** Parses an H.264 sequence parameter set (NAL type 7, header byte included): size, profile, level. */
export function parseH264Sps(nal: Uint8Array): H264Sps {
  if (nal.length < 4 || (nal[0]! & 0x1f) !== 7) throw new SpsError('not an H.264 SPS (NAL type 7)');
  try {
    const reader = new BitReader(unescapeRbsp(nal.subarray(1)));
    const profileIdc = reader.u(8);
    const constraints = reader.u(8);
    const levelIdc = reader.u(8);
    reader.ue(); // seq_parameter_set_id
    let chromaFormatIdc = 1;
    let separateColourPlane = false;
    if ([100, 110, 122, 244, 44, 83, 86, 118, 128, 138, 139, 134, 135].includes(profileIdc)) {
      chromaFormatIdc = reader.ue();
      if (chromaFormatIdc === 3) separateColourPlane = reader.flag();
      reader.ue(); // bit_depth_luma_minus8
      reader.ue(); // bit_depth_chroma_minus8
      reader.skip(1); // qpprime_y_zero_transform_bypass_flag
      if (reader.flag()) {
        for (let i = 0; i < (chromaFormatIdc === 3 ? 12 : 8); i++) {
          if (reader.flag()) skipScalingList(reader, i < 6 ? 16 : 64);
        }
      }
    }
    reader.ue(); // log2_max_frame_num_minus4
    const pocType = reader.ue();
    if (pocType === 0) reader.ue();
    else if (pocType === 1) {
      reader.skip(1);
      reader.se();
      reader.se();
      const cycle = reader.ue();
      for (let i = 0; i < cycle; i++) reader.se();
    }
    reader.ue(); // max_num_ref_frames
    reader.skip(1); // gaps_in_frame_num_value_allowed_flag
    const widthMbs = reader.ue() + 1;
    const heightMapUnits = reader.ue() + 1;
    const frameMbsOnly = reader.flag();
    if (!frameMbsOnly) reader.skip(1);
    reader.skip(1); // direct_8x8_inference_flag
    let crop = { left: 0, right: 0, top: 0, bottom: 0 };
    if (reader.flag()) crop = { left: reader.ue(), right: reader.ue(), top: reader.ue(), bottom: reader.ue() };
    const chromaArray = separateColourPlane ? 0 : chromaFormatIdc;
    const cropUnitX = chromaArray === 0 ? 1 : chromaArray === 3 ? 1 : 2;
    const cropUnitY = (chromaArray === 1 ? 2 : 1) * (frameMbsOnly ? 1 : 2);
    const width = widthMbs * 16 - cropUnitX * (crop.left + crop.right);
    const height = (2 - (frameMbsOnly ? 1 : 0)) * heightMapUnits * 16 - cropUnitY * (crop.top + crop.bottom);
    const constrained = profileIdc === 66 && (constraints & 0x40) !== 0;
    const vui = readVuiIfPresent(reader);
    return {
      profileIdc,
      levelIdc,
      profile: constrained ? 'Constrained Baseline' : (PROFILES[profileIdc] ?? `profile ${profileIdc}`),
      level: levelIdc === 9 ? '1b' : (levelIdc / 10).toFixed(1).replace(/\.0$/, ''),
      width,
      height,
      ...(vui ? { vui } : {}),
    };
  } catch (error) {
    if (error instanceof SpsError) throw error;
    throw new SpsError(`H.264 SPS is truncated or corrupt: ${(error as Error).message}`);
  }
}

/** The VUI is optional and sometimes cut short by encoders: size and profile never depend on it. */
function readVuiIfPresent(reader: BitReader): H264Vui | undefined {
  try {
    return reader.flag() ? readH264Vui(reader) : undefined;
  } catch {
    return undefined;
  }
}

/** The SPS carried in an SDP fmtp `sprop-parameter-sets=<base64 SPS>,<base64 PPS>`. */
export function spsFromFmtp(fmtp: string | undefined): Uint8Array | undefined {
  const sets = /sprop-parameter-sets=([^;\s]+)/.exec(fmtp ?? '')?.[1];
  if (!sets) return undefined;
  for (const part of sets.split(',')) {
    const bytes = Uint8Array.from(Buffer.from(part, 'base64'));
    if (bytes.length > 0 && (bytes[0]! & 0x1f) === 7) return bytes;
  }
  return undefined;
}
