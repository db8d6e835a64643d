import type { Codec, MediaFrame } from '../../core/media';
import { fromAvcc, h264NalType, toAvcc } from '../codecs/h264/nal';
import { h265NalType } from '../codecs/h265/rtp-h265';
import { parameterSetsFromFmtp } from '../containers/fmp4/parameter-sets';

const isH265ParameterSet = (type: number) => type >= 32 && type <= 34;

/**
 * The SPS (and VPS) bytes of a video keyframe, or undefined when it carries none. Where they
 * change, so may the picture size: a decoder or an MP4 init segment made for the old ones no
 * longer fits.
 */
export function parameterSetKey(codecName: string, data: Uint8Array): string | undefined {
  if (codecName !== 'H264' && codecName !== 'H265') return undefined;
  const sets = fromAvcc(data).filter((unit) => (codecName === 'H264' ? h264NalType(unit) === 7 : [32, 33].includes(h265NalType(unit))));
  return sets.length > 0 ? sets.map((unit) => Buffer.from(unit).toString('hex')).join('.') : undefined;
}

/**
 * H.265 keyframes as outputs want them: with their VPS, SPS and PPS, from the stream itself when
 * it sent them (the latest ones), else from the SDP. (The H.264 depacketizer does the same.)
 * So every output sees the parameter sets of the connection its frames come from, and a change
 * of them in the frames themselves.
 */
export function createH265ParameterSetRepair(codec: Codec): (frame: MediaFrame) => MediaFrame {
  const fromSdp = parameterSetsFromFmtp('H265', codec.fmtp);
  let known = [...fromSdp.vps, ...fromSdp.sps, ...fromSdp.pps];
  return (frame) => {
    if (!frame.keyframe) return frame;
    const units = fromAvcc(frame.data);
    const sets = units.filter((unit) => isH265ParameterSet(h265NalType(unit)));
    if (sets.length > 0) {
      known = sets;
      return frame;
    }
    return known.length > 0 ? { ...frame, data: toAvcc([...known, ...units]) } : frame;
  };
}
