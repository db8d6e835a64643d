import type { IncomingMessage } from 'node:http';
import type { RouteRequest } from '@main/platform/http/router';
import type { MediaRequest } from '../../core/negotiation';
import { attachFrameOutput, type FrameOutput, type OutputDeps } from '../../media/frames/attach-output';
import type { MjpegTranscoders, TranscoderSeat } from './mjpeg-transcoders';
import type { SnapshotDecoders } from './snapshot-decoders';
import { createMultipartWriter } from './multipart-writer';

/** JPEG first: a source that has it passes through without transcoding. */
export const PICTURE_REQUEST: MediaRequest[] = [{ kind: 'video', codecs: ['JPEG', 'H264', 'H265'] }];

export interface MjpegStreamDeps extends OutputDeps {
  transcoders: MjpegTranscoders;
  /** A stream's warm snapshot decoder gives a new viewer its first picture in milliseconds. */
  decoders: SnapshotDecoders;
}

/** Where the pictures of one MJPEG viewer go: a multipart response, or go2rtc's WebSocket. */
export interface JpegViewer {
  /** Sends one picture; false when it was skipped (the viewer has not taken the ones before). */
  send(jpeg: Uint8Array): boolean;
  /** No more pictures: the stream ended, or its transcoder did. */
  ended(): void;
}

/**
 * A stream's video as JPEG pictures to one viewer, until the returned stop is called. JPEG
 * sources go out as they come; H.264/H.265 go through the stream's one shared transcoder, which
 * the last viewer's stop releases.
 */
export async function startMjpegViewer(
  deps: MjpegStreamDeps,
  src: string | null,
  request: IncomingMessage,
  viewer: JpegViewer,
): Promise<() => void> {
  let output: FrameOutput | undefined;
  let seat: TranscoderSeat | undefined;
  let attached = false;
  let finished = false;
  let shown = false;
  let firstKeyframe = true;

  const send = (jpeg: Uint8Array) => {
    shown = true;
    if (viewer.send(jpeg)) output?.consumer.countSent(jpeg.length);
  };
  const finish = (tell: boolean) => {
    if (finished) return;
    finished = true;
    seat?.leave();
    output?.release();
    if (tell) viewer.ended();
  };

  try {
    output = await attachFrameOutput(deps, {
      src,
      format: 'mjpeg',
      request,
      requests: PICTURE_REQUEST,
      onFrame(track, frame) {
        if (finished) return;
        if (track.codec.name === 'JPEG') return send(frame.data);
        const streamName = src!.trim();
        seat ??= deps.transcoders.join(streamName, track.codec, { onJpeg: send, onEnd: () => finish(true) });
        // A transcoder that starts now needs an ffmpeg start (about 100 ms) before its first
        // picture; a stream whose snapshot decoder is up (a snapshot was taken lately, as the
        // console does for a tile's poster) shows its keyframe sooner through that decoder.
        if (frame.keyframe && firstKeyframe) {
          firstKeyframe = false;
          if (deps.decoders.isWarm(streamName, track.codec)) {
            deps.decoders.decode(streamName, track.codec, frame).then(
              (jpeg) => !shown && !finished && send(jpeg),
              () => undefined, // the transcoder's pictures follow anyway
            );
          }
        }
        seat.feed(frame, !attached, track.source);
      },
      onClose: () => finish(true),
    });
  } catch (error) {
    seat?.leave();
    throw error;
  }
  attached = true;
  return () => finish(false);
}

/**
 * GET /api/stream.mjpeg?src=: the stream's video as multipart JPEG for as long as the client
 * stays. Leaving releases the consumer and, with the last viewer, the transcoder.
 */
export async function serveMjpegStream(deps: MjpegStreamDeps, { req, res, url }: RouteRequest): Promise<void> {
  const writer = createMultipartWriter(res);
  const stop = await startMjpegViewer(deps, url.searchParams.get('src'), req, {
    send: (jpeg) => writer.write(jpeg),
    ended: () => !res.writableEnded && res.end(),
  });
  if (res.writableEnded) return stop(); // the stream ended while it was attached
  if (res.destroyed) return stop(); // the client left while the source was dialed
  writer.start();
  res.on('close', stop);
}
