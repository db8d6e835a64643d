import { BitReader, unescapeRbsp } from '../../codecs/bit-reader';
import { box, concat, u16, u8 } from './boxes';
import { skipSubLayers } from '../../codecs/h265/sps';

const VPS = 32;
const SPS = 33;
const PPS = 34;
export const h265Type = (unit: Uint8Array): number => (unit[0]! >> 1) & 0x3f;

/** What hvcC and the codec string need from an H.265 SPS. */
interface HevcSpsFields {
  /** The 12 bytes of general_profile_tier_level: space/tier/profile, 32 compatibility flags, 48 constraint flags, level. */
  generalPtl: Uint8Array;
  maxSubLayersMinus1: number;
  temporalIdNesting: boolean;
  chromaFormatIdc: number;
  bitDepthLumaMinus8: number;
  bitDepthChromaMinus8: number;
}

function readSps(sps: Uint8Array | undefined): HevcSpsFields {
  if (!sps || sps.length < 16 || h265Type(sps) !== SPS) throw new Error('H265 track needs an SPS (NAL type 33) in its parameter sets');
  const rbsp = unescapeRbsp(sps.subarray(2));
  try {
    const reader = new BitReader(rbsp);
    reader.skip(4); // sps_video_parameter_set_id
    const maxSubLayersMinus1 = reader.u(3);
    const temporalIdNesting = reader.flag();
    reader.skip(96); // general profile_tier_level, kept as bytes below
    skipSubLayers(reader, maxSubLayersMinus1);
    reader.ue(); // sps_seq_parameter_set_id
    const chromaFormatIdc = reader.ue();
    if (chromaFormatIdc === 3) reader.skip(1);
    reader.ue(); // pic_width_in_luma_samples
    reader.ue(); // pic_height_in_luma_samples
    if (reader.flag()) for (let i = 0; i < 4; i++) reader.ue(); // conformance window
    return {
      generalPtl: rbsp.subarray(1, 13),
      maxSubLayersMinus1,
      temporalIdNesting,
      chromaFormatIdc,
      bitDepthLumaMinus8: reader.ue(),
      bitDepthChromaMinus8: reader.ue(),
    };
  } catch (error) {
    throw new Error(`H265 SPS is truncated: ${(error as Error).message}`);
  }
}

/** Reverses the 32 bits: the codec string lists compatibility flag 0 as the least significant bit. */
function reverseBits32(value: number): number {
  let out = 0;
  for (let i = 0; i < 32; i++) out = out * 2 + ((value >>> i) & 1);
  return out >>> 0;
}

/** `hvc1.1.6.L93.B0` (ISO 14496-15 Annex E): profile space+idc, compatibility, tier+level, constraint bytes. */
export function hevcCodecString(sps: Uint8Array): string {
  const ptl = readSps(sps).generalPtl;
  const space = ['', 'A', 'B', 'C'][ptl[0]! >> 6]!;
  const tier = ptl[0]! & 0x20 ? 'H' : 'L';
  const compat = new DataView(ptl.buffer, ptl.byteOffset + 1, 4).getUint32(0);
  const constraints = [...ptl.subarray(5, 11)];
  while (constraints.length > 0 && constraints[constraints.length - 1] === 0) constraints.pop();
  return [
    'hvc1',
    `${space}${ptl[0]! & 0x1f}`,
    reverseBits32(compat).toString(16).toUpperCase(),
    `${tier}${ptl[11]!}`,
    ...constraints.map((b) => b.toString(16).toUpperCase()),
  ].join('.');
}

/** HEVCDecoderConfigurationRecord (ISO 14496-15 8.3.3) in an `hvcC` box, 4-byte NAL lengths. */
export function hvcCBox(units: readonly Uint8Array[]): Uint8Array {
  const byType = (type: number) => units.filter((u) => h265Type(u) === type);
  const [vps, sps, pps] = [byType(VPS), byType(SPS), byType(PPS)];
  if (vps.length === 0) throw new Error('H265 track needs a VPS (NAL type 32) in its parameter sets');
  if (pps.length === 0) throw new Error('H265 track needs a PPS (NAL type 34) in its parameter sets');
  const f = readSps(sps[0]);
  const arrays = [
    [VPS, vps],
    [SPS, sps],
    [PPS, pps],
  ] as const;
  return box(
    'hvcC',
    u8(1),
    f.generalPtl,
    u16(0xf000), // min_spatial_segmentation_idc unknown
    u8(0xfc), // parallelismType unknown
    u8(0xfc | f.chromaFormatIdc),
    u8(0xf8 | f.bitDepthLumaMinus8),
    u8(0xf8 | f.bitDepthChromaMinus8),
    u16(0), // avgFrameRate unknown
    u8((((f.maxSubLayersMinus1 + 1) & 7) << 3) | (f.temporalIdNesting ? 4 : 0) | 3),
    u8(arrays.length),
    ...arrays.map(([type, list]) => concat([u8(0x80 | type), u16(list.length), ...list.flatMap((u) => [u16(u.length), u])])),
  );
}
