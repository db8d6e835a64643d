import type { MediaFrame } from '../../core/media';
import type { FrameTrack } from '../../media/frames/frame-consumer';
import type { SegmentUnit } from './segmenter';

/** HLS segment containers: MPEG-TS without filters, fMP4 with `mp4`, `video` or `audio`. */
export type HlsContainer = 'ts' | 'fmp4';

/** How one container turns frames into segments; the session and segmenter do the rest. */
export interface SegmentFormat<U extends SegmentUnit = SegmentUnit> {
  readonly container: HlsContainer;
  /** fMP4's init segment (ftyp + moov); undefined for MPEG-TS. */
  init(): Uint8Array | undefined;
  /** RFC 6381 codec strings the container knows exactly (fMP4 once its init segment exists). */
  codecs?(): string[] | undefined;
  /** A frame in; the unit to segment, or undefined while the output waits for a keyframe. */
  write(track: FrameTrack, frame: MediaFrame): U | undefined;
  /** A segment's bytes from its units. */
  build(units: U[]): Uint8Array;
}
