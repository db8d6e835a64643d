import type { IncomingMessage } from 'node:http';
import { HttpError } from '@main/platform/http/http-error';
import type { MediaFrame } from '../../core/media';
import { createFmp4LiveWriter, type Fmp4LiveWriter } from '../../media/containers/fmp4/live-writer';
import { attachFrameOutput, type FrameOutput } from '../../media/frames/attach-output';
import { parameterSetKey } from '../../media/frames/keyframe-parameter-sets';
import { MAX_BUFFERED_BYTES, type Mp4Deps } from './mp4-deps';
import { clientAudioFromCodecs, mseRequests } from './mse-codecs';
import { mp4Tracks, type Mp4Track } from './mp4-tracks';

export interface MseViewer {
  /** `{"type": "mse", "value": "<MIME type with codecs>"}` before the first bytes. */
  sendText(message: { type: string; value: string }): void;
  sendBinary(chunk: Uint8Array): void;
  /** Bytes the socket has not sent yet: past MAX_BUFFERED_BYTES, frames are dropped to the next keyframe. */
  buffered(): number;
  /** The output ended (the stream went away, the picture changed): the reason, for an error message. */
  ended(reason: string): void;
}

/**
 * The MSE mode of go2rtc's WebSocket API: fragmented MP4 over the socket for a browser's
 * MediaSource, starting at the cached keyframe. The codecs are the stream's that the browser
 * listed; a picture of another size (new SPS) ends it, as one init segment fits one size.
 */
export async function startMseViewer(
  deps: Mp4Deps,
  src: string,
  browserCodecs: string,
  request: IncomingMessage,
  viewer: MseViewer,
): Promise<() => void> {
  const requests = mseRequests(browserCodecs);
  if (requests.length === 0)
    throw new HttpError(400, `none of the codecs the browser plays (${browserCodecs || 'none given'}) is one the relay sends in MP4`);
  let tracks: Mp4Track[] = [];
  let writer: Fmp4LiveWriter | undefined;
  // Assigned once attached; finish() may run before that (the viewer leaves while the source dials).
  let output: FrameOutput | undefined = undefined;
  let finished = false;
  const early: Array<{ index: number; frame: MediaFrame; at: number }> = [];
  const parameterSets = new Map<number, string>();

  const finish = (reason?: string) => {
    if (finished) return;
    finished = true;
    output?.release();
    if (reason) viewer.ended(reason);
  };

  const send = (chunks: Uint8Array[]) => {
    if (chunks.length === 0 || finished) return;
    if (viewer.buffered() > (deps.maxBufferedBytes ?? MAX_BUFFERED_BYTES)) return writer!.resync();
    for (const chunk of chunks) {
      viewer.sendBinary(chunk);
      output?.consumer.countSent(chunk.length);
    }
  };

  let announced = false;
  const deliver = (index: number, frame: MediaFrame, at: number) => {
    if (finished || !writer) return;
    const track = tracks[index]!;
    if (track.kind === 'video' && frame.keyframe) {
      const key = parameterSetKey(track.codec.name, frame.data);
      const before = parameterSets.get(index);
      if (key !== undefined) parameterSets.set(index, key);
      if (key !== undefined && before !== undefined && before !== key && writer.started)
        return finish('the source changed its picture; open the stream again');
    }
    try {
      for (const converted of track.convert(frame)) {
        const chunks = writer.push(index, converted, at);
        if (chunks.length > 0 && !announced) {
          announced = true;
          viewer.sendText({ type: 'mse', value: writer.muxer.contentType() });
        }
        send(chunks);
      }
    } catch (error) {
      finish(`${src}: ${(error as Error).message}`);
    }
  };

  output = await attachFrameOutput(deps, {
    src,
    format: 'mse',
    request,
    requests,
    onFrame: (track, frame) =>
      writer ? deliver(track.index, frame, Date.now()) : early.push({ index: track.index, frame, at: Date.now() }),
    onClose: (reason) => finish(`the stream ended (${reason})`),
  });
  try {
    tracks = mp4Tracks(output.consumer.tracks, clientAudioFromCodecs(browserCodecs));
    writer = createFmp4LiveWriter({ tracks });
  } catch (error) {
    output.release();
    throw error instanceof HttpError ? error : new HttpError(400, (error as Error).message);
  }
  for (const { index, frame, at } of early.splice(0)) deliver(index, frame, at);
  return () => finish();
}
