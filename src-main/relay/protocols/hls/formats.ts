import type { ClientAudio } from '../../media/containers/fmp4/audio-form';
import type { FrameTrack } from '../../media/frames/frame-consumer';
import type { HlsContainer, SegmentFormat } from './segment-format';
import { createFmp4SegmentFormat } from './fmp4-segment-format';
import { createTsSegmentFormat } from './ts-segment-format';

/**
 * The segment format for a session's negotiated tracks, fMP4 writing PCM as `client` decodes it;
 * a codec the container lacks throws (the caller answers 400).
 */
export function createFormat(container: HlsContainer, tracks: readonly FrameTrack[], client: ClientAudio): SegmentFormat {
  return container === 'ts' ? createTsSegmentFormat(tracks.map((t) => t.codec)) : createFmp4SegmentFormat(tracks, client);
}
