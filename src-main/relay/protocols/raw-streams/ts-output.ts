import { createMpegTsMuxer } from '../../media/containers/mpegts-mux/mpegts-muxer';
import type { LiveOutputFormat } from './live-output';

/**
 * GET /api/stream.ts: MPEG-TS (H.264/H.265 and AAC), starting with PAT/PMT and a keyframe, as
 * go2rtc serves it to players and recorders that read a transport stream.
 */
export const tsOutput: LiveOutputFormat = {
  format: 'mpegts',
  requests: [
    { kind: 'video', codecs: ['H264', 'H265'] },
    { kind: 'audio', codecs: ['MPEG4-GENERIC'] },
  ],
  writer(tracks) {
    if (tracks.length === 0) throw new Error('the stream has no H.264, H.265 or AAC track for MPEG-TS');
    const muxer = createMpegTsMuxer(tracks.map((t) => t.codec));
    return {
      contentType: 'video/mp2t',
      header: () => muxer.header(),
      write: (track, frame) => muxer.write(track.index, frame)?.data,
    };
  },
};
