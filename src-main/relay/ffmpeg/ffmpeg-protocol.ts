import type { ProtocolContext } from '../protocols';
import type { RunningRtspServer } from '../rtsp/rtsp-server';
import { dialPublishingChild } from './publishing-child';
import { ffmpegArgs, FfmpegSourceError, parseFfmpegSource, readsLocalFiles } from './ffmpeg-args';

/** `ffmpeg:` sources: transcode a file, a URL or another stream, published back into the relay. */
export function registerFfmpeg({ schemes, streams, tasks }: ProtocolContext, rtsp: RunningRtspServer, ffmpegBinary = 'ffmpeg'): void {
  schemes.register('ffmpeg', {
    refuseFromApi: (source) => {
      let input: string;
      try {
        input = parseFfmpegSource(source).input;
      } catch (error) {
        if (error instanceof FfmpegSourceError) return undefined; // the dial says what is wrong
        throw error;
      }
      return readsLocalFiles(input, (name) => streams.get(name) !== undefined)
        ? `ffmpeg: ${input} is a file on this machine: files are played only from the config file, or give an http:// or rtsp:// URL`
        : undefined;
    },
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
