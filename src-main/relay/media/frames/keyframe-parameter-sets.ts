import type { Codec, MediaFrame } from '../../core/media';
import { fromAvcc, h264NalType, toAvcc } from '../codecs/h264/nal';
import { h265NalType } from '../codecs/h265/rtp-h265';
import { parseH264Sps } from '../codecs/h264/sps';
import { parseH265Sps } from '../codecs/h265/sps';
import { parameterSetsFromFmtp } from '../containers/fmp4/parameter-sets';

const isH265ParameterSet = (type: number) => type >= 32 && type <= 34;

/**
 * What a video keyframe's SPS says of the picture (its profile and size), or undefined when it
 * carries none. Where that changes, a decoder or an MP4 init segment made for the old one no
 * longer fits. The bytes themselves are not compared: a camera may send in-band an SPS that
 * differs from its SDP's only in timing or colour fields (GStreamer's x264 does), and the
 * relay puts the SDP's before a keyframe that comes without one, so the bytes can alternate
 * from one keyframe to the next on a picture that never changed. An SPS that does not parse is
 * compared by its bytes.
 */
export function parameterSetKey(codecName: string, data: Uint8Array): string | undefined {
  if (codecName !== 'H264' && codecName !== 'H265') return undefined;
  const sps = fromAvcc(data).find((unit) => (codecName === 'H264' ? h264NalType(unit) === 7 : h265NalType(unit) === 33));
  if (!sps) return undefined;
  try {
    const picture = codecName === 'H264' ? parseH264Sps(sps) : parseH265Sps(sps);
    return `${codecName} ${picture.profile} ${picture.width}x${picture.height}`;
  } catch {
    return Buffer.from(sps).toString('hex');
  }
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
