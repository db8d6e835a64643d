import { createFlvMuxer } from '../../media/containers/flv-mux/flv-muxer';
import type { LiveOutputFormat } from './live-output';

/** GET /api/stream.flv: FLV with H.264 and AAC, for flv.js players and tools that take HTTP-FLV. */
export const flvOutput: LiveOutputFormat = {
  format: 'flv',
  requests: [
    { kind: 'video', codecs: ['H264'] },
    { kind: 'audio', codecs: ['MPEG4-GENERIC'] },
  ],
  writer(tracks) {
    const muxer = createFlvMuxer(tracks.map((t) => t.codec));
    return { contentType: 'video/x-flv', header: () => muxer.header(), write: (track, frame) => muxer.write(track.index, frame) };
  },
};
