import { fromAvcc, h264NalType } from '../../codecs/h264/nal';
import { h265NalType } from '../../codecs/h265/rtp-h265';

const START_CODE = Uint8Array.of(0, 0, 0, 1);
/** Access unit delimiters ("any picture type"): MPEG-TS wants one at the start of each video PES. */
const H264_AUD = Uint8Array.of(0x09, 0xf0);
const H265_AUD = Uint8Array.of(0x46, 0x01, 0x50);

const H264_SPS = 7;
const H264_PPS = 8;
const H264_AUD_TYPE = 9;
const H265_VPS = 32;
const H265_SPS = 33;
const H265_PPS = 34;
const H265_AUD_TYPE = 35;

/** Turns AVCC access units into Annex B as MPEG-TS carries them. */
export type AnnexBWriter = (avcc: Uint8Array, keyframe: boolean) => Uint8Array;

interface VideoRules {
  aud: Uint8Array;
  type(unit: Uint8Array): number;
  audType: number;
  parameterTypes: readonly number[];
}

const RULES: Record<'H264' | 'H265', VideoRules> = {
  H264: { aud: H264_AUD, type: h264NalType, audType: H264_AUD_TYPE, parameterTypes: [H264_SPS, H264_PPS] },
  H265: { aud: H265_AUD, type: h265NalType, audType: H265_AUD_TYPE, parameterTypes: [H265_VPS, H265_SPS, H265_PPS] },
};

/**
 * An Annex B writer for one video track: an AUD first, then the parameter sets before every
 * keyframe that lacks them (the last in-band ones, else those of the SDP `fmtp`), so each HLS
 * segment and each keyframe can be decoded on its own.
 */
export function createAnnexBWriter(codec: 'H264' | 'H265', fmtp: string | undefined): AnnexBWriter {
  const rules = RULES[codec];
  let parameterSets = codec === 'H264' ? h264SetsFromFmtp(fmtp) : h265SetsFromFmtp(fmtp);
  return (avcc, keyframe) => {
    const units = fromAvcc(avcc).filter((u) => rules.type(u) !== rules.audType);
    const inBand = units.filter((u) => rules.parameterTypes.includes(rules.type(u)));
    if (inBand.length > 0) parameterSets = inBand;
    const out = [rules.aud, ...(keyframe && inBand.length === 0 ? parameterSets : []), ...units];
    const bytes = new Uint8Array(out.reduce((n, u) => n + START_CODE.length + u.length, 0));
    let offset = 0;
    for (const unit of out) {
      bytes.set(START_CODE, offset);
      bytes.set(unit, offset + START_CODE.length);
      offset += START_CODE.length + unit.length;
    }
    return bytes;
  };
}

const fromBase64 = (b64: string) => Uint8Array.from(Buffer.from(b64, 'base64'));

/** `sprop-parameter-sets=<SPS>,<PPS>[,...]` of an H.264 fmtp. */
function h264SetsFromFmtp(fmtp: string | undefined): Uint8Array[] {
  const list = /sprop-parameter-sets=([^;\s]+)/.exec(fmtp ?? '')?.[1];
  return list
    ? list
        .split(',')
        .filter(Boolean)
        .map(fromBase64)
        .filter((u) => u.length > 0)
    : [];
}

/** `sprop-vps`, `sprop-sps`, `sprop-pps` of an H.265 fmtp, in that order. */
function h265SetsFromFmtp(fmtp: string | undefined): Uint8Array[] {
  return ['vps', 'sps', 'pps'].flatMap((name) => {
    const b64 = new RegExp(`sprop-${name}=([^;\\s]+)`).exec(fmtp ?? '')?.[1];
    return b64
      ? b64
          .split(',')
          .map(fromBase64)
          .filter((u) => u.length > 0)
      : [];
  });
}
