import { parseH264Sps } from '../../codecs/h264/sps';
import { parseH265Sps } from '../../codecs/h265/sps';
import type { DecodeTimelineHint } from '../../frames/decode-timeline';
import { parameterSetsFromAccessUnit, parameterSetsFromFmtp } from './parameter-sets';

const H264_BASELINE = 66;

/**
 * What an H.264 SPS says about reordering: Baseline has no B-frames; otherwise the VUI's
 * bitstream_restriction gives max_num_reorder_frames (x264 writes it), and timing_info a frame's
 * duration. Undefined when the SPS does not say (the spec's default then is the whole DPB, far
 * more than streams use: the decode timeline learns from the frames instead).
 */
function h264Hint(nal: Uint8Array): DecodeTimelineHint | undefined {
  const sps = parseH264Sps(nal);
  if (sps.profileIdc === H264_BASELINE) return { reorderDepth: 0 };
  const reorderDepth = sps.vui?.maxNumReorderFrames;
  if (reorderDepth === undefined) return undefined;
  const frameDuration = sps.vui?.frameDuration;
  return frameDuration === undefined ? { reorderDepth } : { reorderDepth, frameDuration };
}

/** H.265 SPS: sps_max_num_reorder_pics of the highest sub-layer, which every SPS has (7.3.2.2). */
function h265Hint(nal: Uint8Array): DecodeTimelineHint | undefined {
  const reorderDepth = parseH265Sps(nal).maxNumReorderPics;
  return reorderDepth === undefined ? undefined : { reorderDepth };
}

/** The reorder hint of one SPS NAL unit (header included); undefined when it does not say or is corrupt. */
export function reorderHintFromSps(codecName: string, sps: Uint8Array): DecodeTimelineHint | undefined {
  try {
    if (codecName === 'H264') return h264Hint(sps);
    if (codecName === 'H265') return h265Hint(sps);
  } catch {
    // A truncated or odd SPS: the decode timeline learns from the frames instead.
  }
  return undefined;
}

/**
 * The hint for a video track from the SPS its keyframe carries, else its SDP fmtp's. Decode
 * timelines are made when a track's first keyframe is written, so the stream's own SPS wins.
 */
export function reorderHint(codecName: string, fmtp: string | undefined, keyframe: Uint8Array | undefined): DecodeTimelineHint | undefined {
  const sps =
    (keyframe ? parameterSetsFromAccessUnit(codecName, keyframe).sps[0] : undefined) ?? parameterSetsFromFmtp(codecName, fmtp).sps[0];
  return sps ? reorderHintFromSps(codecName, sps) : undefined;
}
