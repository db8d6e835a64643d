import type { ProtocolContext } from '../protocols';
import type { RunningRtspServer } from '../rtsp/rtsp-server';
import { dialPublishingChild } from './publishing-child';
import { ffmpegArgs, parseFfmpegSource } from './ffmpeg-args';

/** `ffmpeg:` sources: transcode a file, a URL or another stream, published back into the relay. */
export function registerFfmpeg({ schemes, streams, tasks }: ProtocolContext, rtsp: RunningRtspServer, ffmpegBinary = 'ffmpeg'): void {
  schemes.register('ffmpeg', {
    dial: async (source, context) => {
      const parsed = parseFfmpegSource(source);
      return dialPublishingChild({
        rtsp,
        tasks,
        context,
        formatName: 'ffmpeg',
        command: (output) => ({
          file: ffmpegBinary,
          args: ffmpegArgs(parsed, { localStream: (name) => (streams.get(name) && name !== context.streamName ? `rtsp://127.0.0.1:${rtsp.port}/${encodeURIComponent(name)}` : undefined) }, output),
        }),
      });
    },
  });
}
