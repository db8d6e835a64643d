import type { Codec, MediaFrame, MediaKind } from '@main/relay/core/media';
import { createPcmToFlac } from '../../codecs/flac/pcm-to-flac';
import { fmp4AudioForm, type ClientAudio } from './audio-form';
import { FMP4_CODECS, UnsupportedCodecError } from './sample-entry';

/** One track of an fMP4 output as written: the source's track, or FLAC made from its PCM. */
export interface Fmp4OutputTrack {
  kind: MediaKind;
  codec: Codec;
  /** The frames to write for one frame of the source's track (FLAC: one per block of at most 4608 samples). */
  convert(frame: MediaFrame): MediaFrame[];
  /** The source's frames are written as they come (`convert` answers the frame alone). */
  readonly asIs: boolean;
}

/**
 * A consumer's tracks as an fMP4 output writes them for `client` (see `fmp4AudioForm`). A track
 * with no form the client decodes throws UnsupportedCodecError naming what MP4 carries.
 */
export function fmp4OutputTracks(tracks: ReadonlyArray<{ kind: MediaKind; codec: Codec }>, client: ClientAudio): Fmp4OutputTrack[] {
  return tracks.map(({ kind, codec }) => {
    const form = fmp4AudioForm(codec.name, client);
    if (form === 'flac') {
      const flac = createPcmToFlac(codec);
      return { kind, codec: flac.codec, convert: (frame) => flac.convert(frame), asIs: false };
    }
    if (form === undefined) {
      throw new UnsupportedCodecError(
        `MP4 cannot carry ${kind} ${codec.name}: it takes ${FMP4_CODECS.join(', ')}, and PCMA, PCMU, L16 as FLAC`,
      );
    }
    return { kind, codec, convert: (frame) => [frame], asIs: true };
  });
}
