import type { Codec } from '../../core/media';
import { h264NalType } from '../codecs/h264/nal';
import { h265NalType } from '../codecs/h265/rtp-h265';
import { h264Codec, h265Codec } from './codec-description';

/**
 * The codec description of a stream that carries its parameter sets in band (MPEG-TS, Annex B):
 * undefined until an access unit brings them all.
 */
export function videoCodecFromUnits(name: 'H264' | 'H265', units: readonly Uint8Array[]): Codec | undefined {
  if (name === 'H264') {
    const sps = units.find((u) => h264NalType(u) === 7);
    const pps = units.find((u) => h264NalType(u) === 8);
    return sps && pps ? h264Codec(sps, pps) : undefined;
  }
  const vps = units.find((u) => h265NalType(u) === 32);
  const sps = units.find((u) => h265NalType(u) === 33);
  const pps = units.find((u) => h265NalType(u) === 34);
  return vps && sps && pps ? h265Codec(vps, sps, pps) : undefined;
}

/** Is this access unit a keyframe (IDR for H.264, IRAP for H.265)? */
export function isKeyframeUnits(name: 'H264' | 'H265', units: readonly Uint8Array[]): boolean {
  if (name === 'H264') return units.some((u) => h264NalType(u) === 5);
  return units.some((u) => {
    const type = h265NalType(u);
    return type >= 16 && type <= 21;
  });
}
