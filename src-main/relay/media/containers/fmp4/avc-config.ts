import { BitReader, unescapeRbsp } from '../../codecs/bit-reader';
import { box, concat, u16, u8 } from './boxes';

/** Profiles whose SPS carries chroma format and bit depth, and whose avcC must repeat them. */
const HIGH_PROFILES = new Set([100, 110, 122, 244, 44, 83, 86, 118, 128, 138, 139, 134, 135]);

function checkSps(sps: Uint8Array | undefined): Uint8Array {
  if (!sps || sps.length < 4 || (sps[0]! & 0x1f) !== 7) throw new Error('H264 track needs an SPS (NAL type 7) in its parameter sets');
  return sps;
}

/** `avc1.PPCCLL`: profile, constraint flags and level straight from the SPS (RFC 6381). */
export function avcCodecString(sps: Uint8Array): string {
  const s = checkSps(sps);
  return `avc1.${[s[1]!, s[2]!, s[3]!].map((b) => b.toString(16).padStart(2, '0').toUpperCase()).join('')}`;
}

/** AVCDecoderConfigurationRecord (ISO 14496-15 5.3.3) in an `avcC` box, 4-byte NAL lengths. */
export function avcCBox(spsList: readonly Uint8Array[], ppsList: readonly Uint8Array[]): Uint8Array {
  const sps = checkSps(spsList[0]);
  if (ppsList.length === 0) throw new Error('H264 track needs a PPS (NAL type 8) in its parameter sets');
  const sets = (units: readonly Uint8Array[]) => concat(units.flatMap((u) => [u16(u.length), u]));
  const parts = [
    Uint8Array.of(1, sps[1]!, sps[2]!, sps[3]!, 0xff, 0xe0 | spsList.length),
    sets(spsList),
    u8(ppsList.length),
    sets(ppsList),
  ];
  if (HIGH_PROFILES.has(sps[1]!)) {
    const { chromaFormatIdc, bitDepthLumaMinus8, bitDepthChromaMinus8 } = readChromaAndDepth(sps);
    parts.push(Uint8Array.of(0xfc | chromaFormatIdc, 0xf8 | bitDepthLumaMinus8, 0xf8 | bitDepthChromaMinus8, 0));
  }
  return box('avcC', ...parts);
}

function readChromaAndDepth(sps: Uint8Array): { chromaFormatIdc: number; bitDepthLumaMinus8: number; bitDepthChromaMinus8: number } {
  try {
    const reader = new BitReader(unescapeRbsp(sps.subarray(1)));
    reader.skip(24); // profile_idc, constraint flags, level_idc
    reader.ue(); // seq_parameter_set_id
    const chromaFormatIdc = reader.ue();
    if (chromaFormatIdc === 3) reader.skip(1);
    return { chromaFormatIdc, bitDepthLumaMinus8: reader.ue(), bitDepthChromaMinus8: reader.ue() };
  } catch (error) {
    throw new Error(`H264 SPS is truncated: ${(error as Error).message}`);
  }
}
