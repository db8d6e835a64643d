import type { RouteRequest } from '../../platform/http/router';
import type { MediaRequest } from '../core/negotiation';
import { attachFrameOutput, type FrameOutput, type OutputDeps } from '../frames/attach-output';
import type { MjpegTranscoders, TranscoderSeat } from './mjpeg-transcoders';
import { createMultipartWriter } from './multipart-writer';

/** JPEG first: a source that has it passes through without transcoding. */
export const PICTURE_REQUEST: MediaRequest[] = [{ kind: 'video', codecs: ['JPEG', 'H264', 'H265'] }];

export interface MjpegStreamDeps extends OutputDeps {
  transcoders: MjpegTranscoders;
}

/**
 * GET /api/stream.mjpeg?src=: the stream's video as multipart JPEG for as long as the client
 * stays. JPEG sources go out as they come; H.264/H.265 go through the stream's one shared
 * transcoder. Leaving releases the consumer and, with the last viewer, the transcoder.
 */
export async function serveMjpegStream(deps: MjpegStreamDeps, { req, res, url }: RouteRequest): Promise<void> {
  const src = url.searchParams.get('src');
  const writer = createMultipartWriter(res);
  let output: FrameOutput | undefined;
  let seat: TranscoderSeat | undefined;
  let attached = false;
  let finished = false;

  const send = (jpeg: Uint8Array) => {
    if (writer.write(jpeg)) output?.consumer.countSent(jpeg.length);
  };
  const finish = () => {
    if (finished) return;
    finished = true;
    seat?.leave();
    output?.release();
    if (!res.writableEnded) res.end();
  };

  try {
    output = await attachFrameOutput(deps, {
      src,
      format: 'mjpeg',
      request: req,
      requests: PICTURE_REQUEST,
      onFrame(track, frame) {
        if (finished) return;
        if (track.codec.name === 'JPEG') return send(frame.data);
        seat ??= deps.transcoders.join(src!.trim(), track.codec, { onJpeg: send, onEnd: finish });
        seat.feed(frame, !attached, track.source);
      },
      onClose: finish,
    });
  } catch (error) {
    seat?.leave();
    throw error;
  }
  attached = true;
  if (finished) return;
  if (res.destroyed) return finish(); // the client left while the source was dialed
  writer.start();
  res.on('close', finish);
}
