import type { MediaFrame } from '../../core/media';
import type { FrameTrack } from '../../media/frames/frame-consumer';
import type { ClientAudio } from '../../media/containers/fmp4/audio-form';
import { createFmp4Muxer } from '../../media/containers/fmp4/muxer';
import { fmp4OutputTracks } from '../../media/containers/fmp4/output-tracks';
import type { SegmentFormat } from './segment-format';
import type { SegmentUnit } from './segmenter';

interface Fmp4Unit extends SegmentUnit {
  track: number;
  /** What one source frame became (G.711 as FLAC: a frame per FLAC block). */
  frames: MediaFrame[];
}

const TICKS = 90000;

/**
 * fMP4 segments (`segment.m4s`, one moof + mdat each) after an init segment (`init.mp4`). The
 * first video track leads: it starts at 0 on a keyframe whose parameter sets are known; every
 * other track starts where the leader is when its first frame arrives (its RTP clock shares no
 * origin with the leader's, and the leader begins with the cached GOP). PCM audio is written as
 * `client` decodes it (FLAC, or G.711 as it is: see `fmp4AudioForm`).
 */
export function createFmp4SegmentFormat(tracks: readonly FrameTrack[], client: ClientAudio): SegmentFormat<Fmp4Unit> {
  const outputs = fmp4OutputTracks(tracks, client);
  const muxer = createFmp4Muxer(outputs);
  const hasVideo = tracks.some((t) => t.kind === 'video');
  const lead = Math.max(
    0,
    tracks.findIndex((t) => t.kind === 'video'),
  );
  const begun = tracks.map(() => false);
  let init: Uint8Array | undefined;
  let leadSeconds = 0;

  function begin(index: number, frame: MediaFrame): boolean {
    if (begun[index]) return true;
    if (tracks[index]!.kind === 'video' && !frame.keyframe) return false;
    if (!begun[lead]) {
      // Nothing before the leader's first keyframe, and not before the init segment can be made.
      if (index !== lead) return false;
      init ??= muxer.init();
      if (!init) return false;
    }
    muxer.anchor(index, frame.timestamp, index === lead ? 0 : leadSeconds);
    begun[index] = true;
    return true;
  }

  return {
    container: 'fmp4',
    init: () => init,
    codecs: () => (init ? muxer.codecs().split(',') : undefined),
    write(track, frame) {
      if (track.kind === 'video' && frame.keyframe) muxer.learn(track.index, frame);
      if (!begin(track.index, frame)) return undefined;
      const seconds = muxer.seconds(track.index, frame.timestamp);
      if (track.index === lead) leadSeconds = seconds;
      const leads = !hasVideo || track.index === lead;
      const frames = outputs[track.index]!.convert(frame);
      return { track: track.index, frames, time: Math.round(seconds * TICKS), cut: leads && (!hasVideo || frame.keyframe), lead: leads };
    },
    build: (units) => muxer.fragment(units.flatMap((u) => u.frames.map((frame) => ({ track: u.track, frame })))),
  };
}
