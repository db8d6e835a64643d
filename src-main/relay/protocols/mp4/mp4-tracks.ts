import { HttpError } from '@main/platform/http/http-error';
import type { FrameTrack } from '../../media/frames/frame-consumer';
import { QUERY_CLIENT, type ClientAudio } from '../../media/containers/fmp4/audio-form';
import { fmp4OutputTracks, type Fmp4OutputTrack } from '../../media/containers/fmp4/output-tracks';

/** One track of the MP4 as written: the consumer's track, or FLAC made from its PCM. */
export type Mp4Track = Fmp4OutputTrack;

/**
 * The consumer's tracks as the MP4 carries them for `client` (a query's filters: PCM as FLAC, as
 * in go2rtc; an MSE codec list: what the browser named). A codec MP4 cannot carry is a 400 naming it.
 */
export function mp4Tracks(tracks: readonly FrameTrack[], client: ClientAudio = QUERY_CLIENT): Mp4Track[] {
  try {
    return fmp4OutputTracks(tracks, client);
  } catch (error) {
    throw new HttpError(400, (error as Error).message);
  }
}
