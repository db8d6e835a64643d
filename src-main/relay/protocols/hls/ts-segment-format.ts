import type { Codec } from '../../core/media';
import { concat } from '../../media/containers/mpegts-mux/ts-packetizer';
import { createMpegTsMuxer } from '../../media/containers/mpegts-mux/mpegts-muxer';
import type { SegmentFormat } from './segment-format';
import type { SegmentUnit } from './segmenter';

interface TsUnit extends SegmentUnit {
  data: Uint8Array;
}

/**
 * MPEG-TS segments: each begins with PAT and PMT and a video keyframe (parameter sets before it),
 * so a player can start at any of them; continuity counters run on across segments.
 */
export function createTsSegmentFormat(codecs: readonly Codec[]): SegmentFormat<TsUnit> {
  const muxer = createMpegTsMuxer(codecs);
  const hasVideo = codecs.some((c) => c.name === 'H264' || c.name === 'H265');
  return {
    container: 'ts',
    init: () => undefined,
    write(track, frame) {
      const muxed = muxer.write(track.index, frame);
      if (!muxed) return undefined;
      const lead = !hasVideo || muxed.kind === 'video';
      return { data: muxed.data, time: muxed.time, cut: lead && (!hasVideo || muxed.keyframe), lead };
    },
    build: (units) => concat([muxer.header(), ...units.map((u) => u.data)]),
  };
}
