import type { ProtocolContext } from '../protocol-context';
import type { RunningRtspServer } from '../rtsp/rtsp-server';
import { createHardwareProber } from './hardware';
import { registerHardwareRoute } from './hardware-route';
import { dialPublishingChild } from './publishing-child';
import { isDeviceInput } from './device-input';
import { registerDevicesRoute } from './devices-route';
import { ffmpegArgs, FfmpegSourceError, parseFfmpegSource, readsLocalFiles, type FfmpegSource } from './ffmpeg-args';

/** `ffmpeg:` sources: transcode a file, a URL or another stream, published back into the relay. */
export function registerFfmpeg({ ctx, schemes, streams, tasks }: ProtocolContext, rtsp: RunningRtspServer, ffmpegBinary = 'ffmpeg'): void {
  const hardware = createHardwareProber(ffmpegBinary);
  registerHardwareRoute(ctx.http, hardware);
  registerDevicesRoute(ctx.http, ffmpegBinary);

  /** Why the API and the console may not give this source; the config file may. */
  const refuseFromApi = (source: string, streamName?: string): string | undefined => {
    let parsed: FfmpegSource;
    try {
      parsed = parseFfmpegSource(source);
    } catch (error) {
      if (error instanceof FfmpegSourceError) return undefined; // the dial says what is wrong
      throw error;
    }
    if (isDeviceInput(parsed.input))
      return `ffmpeg: ${parsed.input} is a capture device of this machine: devices are opened only from the config file`;
    if (readsLocalFiles(parsed.input, (name) => name === streamName || streams.get(name) !== undefined)) {
      return `ffmpeg: ${parsed.input} is a file on this machine: files are played only from the config file, or give an http:// or rtsp:// URL`;
    }
    // Raw arguments can make ffmpeg read and write any file (-i /etc/shadow, an output path).
    if (parsed.raw.length > 0) return 'ffmpeg: #raw= passes arguments to ffmpeg as they are and is accepted from the config file only';
    return undefined;
  };

  schemes.register('ffmpeg', {
    refuseFromApi,
    dial: async (source, context) => {
      const parsed = parseFfmpegSource(source);
      const videoCodec = parsed.video.find((codec) => codec !== 'copy');
      const engine = parsed.hardware === 'auto' ? (videoCodec ? await hardware.engineFor(videoCodec) : undefined) : parsed.hardware;
      return dialPublishingChild({
        rtsp,
        tasks,
        context,
        formatName: 'ffmpeg',
        command: (output) => ({
          file: ffmpegBinary,
          args: ffmpegArgs(
            parsed,
            {
              localStream: (name) => {
                if (!streams.get(name)) return undefined;
                const url = `rtsp://127.0.0.1:${rtsp.port}/${encodeURIComponent(name)}`;
                // Listed under the stream it reads (Home Assistant's [camera, "ffmpeg:<name>#audio=opus"]).
                return name === context.streamName ? `${url}?source=${encodeURIComponent(source)}` : url;
              },
              hardware: engine,
            },
            output,
          ),
        }),
      });
    },
  });
}
