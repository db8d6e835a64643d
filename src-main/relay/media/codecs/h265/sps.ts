import { BitReader, unescapeRbsp } from '../bit-reader';

export interface H265Sps {
  profileIdc: number;
  levelIdc: number;
  profile: string;
  level: string;
  tier: 'Main' | 'High';
  width: number;
  height: number;
  /** sps_max_num_reorder_pics of the highest sub-layer: 0 means no B-frames. */
  maxNumReorderPics?: number;
}

const PROFILES: Record<number, string> = { 1: 'Main', 2: 'Main 10', 3: 'Main Still Picture', 4: 'Rext', 9: 'SCC' };

/** Parses an H.265 sequence parameter set (NAL type 33, 2-byte header included): size, profile, tier, level. */
export function parseH265Sps(nal: Uint8Array): H265Sps {
  if (nal.length < 4 || ((nal[0]! >> 1) & 0x3f) !== 33) throw new Error('not an H.265 SPS (NAL type 33)');
  try {
    const reader = new BitReader(unescapeRbsp(nal.subarray(2)));
    reader.skip(4); // sps_video_parameter_set_id
    const maxSubLayersMinus1 = reader.u(3);
    reader.skip(1); // temporal_id_nesting
    // profile_tier_level(1, maxSubLayersMinus1)
    reader.skip(2); // general_profile_space
    const tier = reader.u(1) === 1 ? 'High' : 'Main';
    const profileIdc = reader.u(5);
    reader.skip(32 + 4 + 43 + 1); // compatibility flags, source flags, reserved
    const levelIdc = reader.u(8);
    skipSubLayers(reader, maxSubLayersMinus1);
    reader.ue(); // sps_seq_parameter_set_id
    const chromaFormatIdc = reader.ue();
    if (chromaFormatIdc === 3) reader.skip(1);
    let width = reader.ue();
    let height = reader.ue();
    if (reader.flag()) {
      const subWidth = chromaFormatIdc === 1 || chromaFormatIdc === 2 ? 2 : 1;
      const subHeight = chromaFormatIdc === 1 ? 2 : 1;
      const [left, right, top, bottom] = [reader.ue(), reader.ue(), reader.ue(), reader.ue()];
      width -= subWidth * (left + right);
      height -= subHeight * (top + bottom);
    }
    const maxNumReorderPics = readReorderPics(reader, maxSubLayersMinus1);
    return {
      profileIdc,
      levelIdc,
      profile: PROFILES[profileIdc] ?? `profile ${profileIdc}`,
      level: (levelIdc / 30).toFixed(1).replace(/\.0$/, ''),
      tier,
      width,
      height,
      ...(maxNumReorderPics === undefined ? {} : { maxNumReorderPics }),
    };
  } catch (error) {
    throw new Error(`H.265 SPS is truncated or corrupt: ${(error as Error).message}`);
  }
}

/** Bit depths, POC length, then sub_layer_ordering_info (7.3.2.2): the last sub-layer's reorder count. */
function readReorderPics(reader: BitReader, maxSubLayersMinus1: number): number | undefined {
  try {
    reader.ue(); // bit_depth_luma_minus8
    reader.ue(); // bit_depth_chroma_minus8
    reader.ue(); // log2_max_pic_order_cnt_lsb_minus4
    const allSubLayers = reader.flag();
    let reorder = 0;
    for (let i = allSubLayers ? 0 : maxSubLayersMinus1; i <= maxSubLayersMinus1; i++) {
      reader.ue(); // sps_max_dec_pic_buffering_minus1
      reorder = reader.ue();
      reader.ue(); // sps_max_latency_increase_plus1
    }
    return reorder;
  } catch {
    return undefined;
  }
}

/** The SPS carried in an SDP fmtp `sprop-sps=<base64>`. */
export function h265SpsFromFmtp(fmtp: string | undefined): Uint8Array | undefined {
  const b64 = /sprop-sps=([^;\s]+)/.exec(fmtp ?? '')?.[1];
  return b64 ? Uint8Array.from(Buffer.from(b64, 'base64')) : undefined;
}

/** The sub-layer part of profile_tier_level (H.265 7.3.3), which nothing here needs: skipped. */
export function skipSubLayers(reader: BitReader, maxSubLayersMinus1: number): void {
  const subLayers: Array<{ profile: boolean; level: boolean }> = [];
  for (let i = 0; i < maxSubLayersMinus1; i++) subLayers.push({ profile: reader.flag(), level: reader.flag() });
  if (maxSubLayersMinus1 > 0) for (let i = maxSubLayersMinus1; i < 8; i++) reader.skip(2);
  for (const layer of subLayers) {
    if (layer.profile) reader.skip(88);
    if (layer.level) reader.skip(8);
  }
}
