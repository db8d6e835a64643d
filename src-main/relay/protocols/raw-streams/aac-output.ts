import { createAdtsFramer } from '../../media/containers/mpegts-mux/adts';
import type { LiveOutputFormat } from './live-output';

/** GET /api/stream.aac: the stream's AAC audio as ADTS, the form players and `ffplay` read raw. */
export const aacOutput: LiveOutputFormat = {
  format: 'aac',
  requests: [{ kind: 'audio', codecs: ['MPEG4-GENERIC'] }],
  writer(tracks) {
    const audio = tracks.find((t) => t.kind === 'audio');
    if (!audio) throw new Error('the stream has no AAC audio');
    const frame = createAdtsFramer(audio.codec.fmtp);
    return { contentType: 'audio/aac', write: (track, media) => (track === audio ? frame(media.data) : undefined) };
  },
};
