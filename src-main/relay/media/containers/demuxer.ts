import type { Codec, MediaFrame, MediaKind } from '../../core/media';

/** Bytes that are not the container they claim to be; the message says what was wrong and where. */
export class DemuxError extends Error {
  override name = 'DemuxError';
}

export interface DemuxedTrack {
  kind: MediaKind;
  codec: Codec;
}

/**
 * Where a demuxer delivers: the tracks once, when every track's codec is known (parameter sets
 * and audio configs come in band), then frames by track index.
 */
export interface DemuxSink {
  tracks(tracks: DemuxedTrack[]): void;
  frame(track: number, frame: MediaFrame): void;
}

/** A streaming demuxer: bytes in any chunking; `push` and `end` throw DemuxError. */
export interface Demuxer {
  readonly format: string;
  push(chunk: Uint8Array): void;
  /** The input ended: throws when it ended before any media could be read. */
  end(): void;
}

/** Bytes kept across chunks, consumed from the front. */
export class ByteQueue {
  private buffer = Buffer.alloc(0);

  append(chunk: Uint8Array): void {
    this.buffer = this.buffer.length === 0 ? Buffer.from(chunk) : Buffer.concat([this.buffer, chunk]);
  }

  get length(): number {
    return this.buffer.length;
  }

  peek(length: number): Buffer | undefined {
    return this.buffer.length >= length ? this.buffer.subarray(0, length) : undefined;
  }

  take(length: number): Buffer | undefined {
    if (this.buffer.length < length) return undefined;
    const out = this.buffer.subarray(0, length);
    this.buffer = this.buffer.subarray(length);
    return out;
  }
}
