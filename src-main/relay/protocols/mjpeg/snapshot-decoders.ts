import type { Codec, MediaFrame } from '../../core/media';
import type { TaskRegistry } from '../../core/task-registry';
import { decodeKeyframeOnce } from './decode-once';
import { createJpegEncoder, type JpegEncoder } from './jpeg-encoder';

export interface SnapshotDecoders {
  /** One keyframe → a JPEG, from the stream's warm decoder (started on first use). */
  decode(streamName: string, codec: Codec, keyframe: MediaFrame): Promise<Uint8Array>;
  /** Is there a running decoder for the stream that answers within milliseconds? */
  isWarm(streamName: string, codec: Codec): boolean;
  close(): void;
}

export interface SnapshotDecoderOptions {
  tasks: TaskRegistry;
  ffmpegBinary?: string;
  /** How long a decoder stays up after its last snapshot (snapshot clients poll). */
  idleMs?: number;
  /** How long a warm decoder may take before the stream is decoded one ffmpeg per picture. */
  warmWaitMs?: number;
  timeoutMs?: number;
  quality?: number;
}

/** Streams remembered as one-ffmpeg-per-picture, at most (they cost a map entry each). */
const MAX_REMEMBERED = 256;

interface Waiter {
  keyframe: MediaFrame;
  resolve(jpeg: Uint8Array): void;
  reject(error: Error): void;
}

interface Decoder {
  /** `warm`: one ffmpeg kept running; `once`: its decoder holds pictures back, one ffmpeg each. */
  mode: 'warm' | 'once';
  encoder?: JpegEncoder;
  waiting: Waiter[];
  idle?: NodeJS.Timeout;
  /** The decode of a keyframe in flight, so requests that come together share it. */
  inFlight: Map<number, Promise<Uint8Array>>;
}

/**
 * Snapshots without an ffmpeg start each time: starting ffmpeg alone takes about 100 ms, so a
 * stream keeps one decoder while snapshots of it are asked for (it idles out after `idleMs`);
 * a keyframe goes in and its JPEG comes out within milliseconds, one picture per keyframe, in
 * order. A stream whose SPS declares reordering (B-frames) makes the decoder hold the picture
 * back; when no picture comes within `warmWaitMs`, that stream is decoded one ffmpeg per
 * picture instead (still correct, about 100 ms slower).
 */
export function createSnapshotDecoders(options: SnapshotDecoderOptions): SnapshotDecoders {
  const decoders = new Map<string, Decoder>();
  const idleMs = options.idleMs ?? 30_000;
  const warmWaitMs = options.warmWaitMs ?? 1_000;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const quality = options.quality ?? 3;

  const scheduleIdle = (key: string, decoder: Decoder) => {
    clearTimeout(decoder.idle);
    if (decoder.waiting.length > 0) return;
    // An idle warm decoder goes with its ffmpeg; a stream known to need one ffmpeg per picture
    // is remembered (it holds no process) so its next snapshot does not wait out warmWaitMs again.
    if (decoder.mode === 'once' && decoders.size <= MAX_REMEMBERED) return;
    decoder.idle = setTimeout(() => stop(key, decoder, new Error('snapshot decoder idle')), idleMs);
    decoder.idle.unref();
  };

  const stop = (key: string, decoder: Decoder, error: Error) => {
    if (decoders.get(key) === decoder) decoders.delete(key);
    clearTimeout(decoder.idle);
    decoder.encoder?.close();
    for (const waiter of decoder.waiting.splice(0)) waiter.reject(error);
  };

  const once = (streamName: string, codec: Codec, keyframe: MediaFrame) =>
    decodeKeyframeOnce({
      codec,
      keyframe,
      tasks: options.tasks,
      description: `snapshot decoder for ${streamName}`,
      quality,
      timeoutMs,
      ffmpegBinary: options.ffmpegBinary,
    });

  /** The warm decoder kept a picture back: from now on this stream is decoded one ffmpeg per picture. */
  const fallBack = (key: string, decoder: Decoder, streamName: string, codec: Codec) => {
    decoder.mode = 'once';
    decoder.encoder?.close();
    decoder.encoder = undefined;
    for (const waiter of decoder.waiting.splice(0)) once(streamName, codec, waiter.keyframe).then(waiter.resolve, waiter.reject);
    scheduleIdle(key, decoder);
  };

  function warmEncoder(key: string, decoder: Decoder, streamName: string, codec: Codec): JpegEncoder {
    decoder.encoder ??= createJpegEncoder({
      codec,
      tasks: options.tasks,
      description: `snapshot decoder for ${streamName}`,
      quality,
      ffmpegBinary: options.ffmpegBinary,
      onJpeg(jpeg) {
        decoder.waiting.shift()?.resolve(jpeg);
        scheduleIdle(key, decoder);
      },
      onFailure: (error) => stop(key, decoder, error),
    });
    return decoder.encoder;
  }

  function decodeWarm(key: string, decoder: Decoder, streamName: string, codec: Codec, keyframe: MediaFrame): Promise<Uint8Array> {
    return new Promise<Uint8Array>((resolve, reject) => {
      const timer = setTimeout(() => fallBack(key, decoder, streamName, codec), warmWaitMs);
      const settle =
        <T>(fn: (value: T) => void) =>
        (value: T) => {
          clearTimeout(timer);
          fn(value);
        };
      decoder.waiting.push({ keyframe, resolve: settle(resolve), reject: settle(reject) });
      if (!warmEncoder(key, decoder, streamName, codec).write(keyframe)) {
        decoder.waiting.pop();
        clearTimeout(timer);
        scheduleIdle(key, decoder);
        reject(new Error('the decoder did not take the keyframe'));
      }
    });
  }

  const keyOf = (streamName: string, codec: Codec) => `${streamName}\n${codec.name}\n${codec.fmtp ?? ''}`;

  return {
    isWarm(streamName, codec) {
      const decoder = decoders.get(keyOf(streamName, codec));
      return decoder?.mode === 'warm' && decoder.encoder?.running === true;
    },
    decode(streamName, codec, keyframe) {
      const key = keyOf(streamName, codec);
      let decoder = decoders.get(key);
      if (!decoder) {
        decoder = { mode: 'warm', waiting: [], inFlight: new Map() };
        decoders.set(key, decoder);
      }
      const shared = decoder.inFlight.get(keyframe.timestamp);
      if (shared) return shared;
      clearTimeout(decoder.idle);
      const current = decoder;
      const picture = (
        current.mode === 'warm' ? decodeWarm(key, current, streamName, codec, keyframe) : once(streamName, codec, keyframe)
      ).finally(() => {
        current.inFlight.delete(keyframe.timestamp);
        scheduleIdle(key, current);
      });
      current.inFlight.set(keyframe.timestamp, picture);
      return picture;
    },
    close() {
      for (const [key, decoder] of [...decoders]) stop(key, decoder, new Error('relay closing'));
    },
  };
}
