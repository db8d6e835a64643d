import { HttpError } from '../../../platform/http/http-error';
import type { Codec, MediaFrame, MediaKind } from '../../core/media';
import type { FrameTrack } from '../../media/frames/frame-consumer';
import { isPcmCodec } from '../../media/codecs/flac/pcm-input';
import { createPcmToFlac } from '../../media/codecs/flac/pcm-to-flac';
import { fmp4Carries, FMP4_CODECS } from '../../media/containers/fmp4/sample-entry';

/** One track of the MP4 as written: the consumer's track, or FLAC made from its PCM. */
export interface Mp4Track {
  kind: MediaKind;
  codec: Codec;
  /** The frames to write for one frame of the consumer's track. */
  convert(frame: MediaFrame): MediaFrame[];
}

/**
 * The consumer's tracks as the MP4 carries them. PCMA, PCMU and L16 become FLAC, as in go2rtc
 * (browsers play FLAC in MP4, not G.711). A codec MP4 cannot carry is a 400 naming it.
 */
export function mp4Tracks(tracks: readonly FrameTrack[]): Mp4Track[] {
  return tracks.map((track) => {
    if (isPcmCodec(track.codec.name)) {
      const flac = createPcmToFlac(track.codec);
      return { kind: track.kind, codec: flac.codec, convert: (frame) => flac.convert(frame) };
    }
    if (!fmp4Carries(track.codec.name)) {
      throw new HttpError(400, `MP4 cannot carry ${track.kind} ${track.codec.name}: it takes ${FMP4_CODECS.join(', ')}, and PCMA, PCMU, L16 as FLAC`);
    }
    return { kind: track.kind, codec: track.codec, convert: (frame) => [frame] };
  });
}
