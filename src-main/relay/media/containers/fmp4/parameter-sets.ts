import { fromAvcc } from '../../codecs/h264/nal';
import { h265Type } from './hevc-config';

/** The parameter sets an MP4 video sample entry needs: SPS and PPS (H.264), plus VPS (H.265). */
export interface ParameterSets {
  vps: Uint8Array[];
  sps: Uint8Array[];
  pps: Uint8Array[];
}

const base64List = (value: string | undefined): Uint8Array[] =>
  (value ?? '')
    .split(',')
    .filter((part) => part.length > 0)
    .map((part) => Uint8Array.from(Buffer.from(part, 'base64')))
    .filter((unit) => unit.length > 0);

const fmtpValue = (fmtp: string | undefined, key: string): string | undefined =>
  new RegExp(`(?:^|;)\\s*${key}=([^;\\s]+)`).exec(fmtp ?? '')?.[1];

/** Parameter sets of an SDP fmtp: `sprop-parameter-sets` (H.264), `sprop-vps/sps/pps` (H.265). */
export function parameterSetsFromFmtp(codecName: string, fmtp: string | undefined): ParameterSets {
  if (codecName === 'H264') {
    const units = base64List(fmtpValue(fmtp, 'sprop-parameter-sets'));
    return { vps: [], sps: units.filter((u) => (u[0]! & 0x1f) === 7), pps: units.filter((u) => (u[0]! & 0x1f) === 8) };
  }
  if (codecName === 'H265') {
    return {
      vps: base64List(fmtpValue(fmtp, 'sprop-vps')),
      sps: base64List(fmtpValue(fmtp, 'sprop-sps')),
      pps: base64List(fmtpValue(fmtp, 'sprop-pps')),
    };
  }
  return { vps: [], sps: [], pps: [] };
}

/** Parameter sets inside an access unit (AVCC), as cameras send them before each keyframe. */
export function parameterSetsFromAccessUnit(codecName: string, avcc: Uint8Array): ParameterSets {
  const sets: ParameterSets = { vps: [], sps: [], pps: [] };
  for (const unit of fromAvcc(avcc)) {
    if (codecName === 'H264') {
      const type = unit[0]! & 0x1f;
      if (type === 7) sets.sps.push(unit);
      if (type === 8) sets.pps.push(unit);
    } else if (codecName === 'H265' && unit.length >= 2) {
      const type = h265Type(unit);
      if (type === 32) sets.vps.push(unit);
      if (type === 33) sets.sps.push(unit);
      if (type === 34) sets.pps.push(unit);
    }
  }
  return sets;
}

/** Are these enough for the codec's sample entry? */
export function hasParameterSets(codecName: string, sets: ParameterSets): boolean {
  const base = sets.sps.length > 0 && sets.pps.length > 0;
  return codecName === 'H265' ? base && sets.vps.length > 0 : base;
}
