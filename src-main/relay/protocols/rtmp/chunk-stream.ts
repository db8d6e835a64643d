// The RTMP chunk stream (RTMP spec, 5.3): messages cut into chunks of at most `chunkSize` bytes,
// each with a basic header (format, chunk stream id) and a message header that the formats 1-3
// shorten by reusing the previous chunk's fields on the same chunk stream.

import { MEDIA_MESSAGE_BYTES } from './rtmp-limits';

export interface RtmpMessage {
  type: number;
  streamId: number;
  /** Milliseconds, 32 bits. */
  timestamp: number;
  payload: Buffer;
}

export class RtmpProtocolError extends Error {
  override name = 'RtmpProtocolError';
}

interface ChunkStreamState {
  timestamp: number;
  delta: number;
  length: number;
  type: number;
  streamId: number;
  extended: boolean;
  parts: Buffer[];
  received: number;
}

export interface ChunkReaderLimits {
  /** Largest message taken; raised once a publisher is let in (see rtmp-limits.ts). */
  maxMessageBytes: number;
}

/**
 * Chunk streams one peer may use. Flash, OBS and ffmpeg use three to six (control, commands,
 * audio, video); each id past this would be a header kept for the connection's life.
 */
export const MAX_CHUNK_STREAMS = 64;

/** Reassembles messages from chunks as bytes arrive; `chunkSize` follows the peer's Set Chunk Size. */
export class ChunkReader {
  chunkSize = 128;
  maxMessageBytes: number;
  private buffer: Buffer = Buffer.alloc(0);
  private readonly streams = new Map<number, ChunkStreamState>();
  /** Bytes of messages begun and not finished, over all chunk streams. */
  private parked = 0;

  constructor(
    private readonly onMessage: (message: RtmpMessage) => void,
    limits: ChunkReaderLimits = { maxMessageBytes: MEDIA_MESSAGE_BYTES },
  ) {
    this.maxMessageBytes = limits.maxMessageBytes;
  }

  /** Bytes held for messages not yet complete: unfinished messages and a cut-off chunk. */
  get bufferedBytes(): number {
    return this.parked + this.buffer.length;
  }

  push(data: Buffer): void {
    this.buffer = this.buffer.length === 0 ? data : Buffer.concat([this.buffer, data]);
    while (this.readChunk());
  }

  /** Abort Message (RTMP spec, 5.4.2): the peer gives up the message begun on `csid`. */
  abort(csid: number): void {
    const state = this.streams.get(csid);
    if (state) this.dropPartial(state);
  }

  /** Lets go of every byte held: the connection is gone, nothing may keep its buffers alive. */
  release(): void {
    this.buffer = Buffer.alloc(0);
    this.streams.clear();
    this.parked = 0;
  }

  private dropPartial(state: ChunkStreamState): void {
    this.parked -= state.received;
    state.parts = [];
    state.received = 0;
  }

  /** One chunk if all its bytes are here; false to wait for more. */
  private readChunk(): boolean {
    const b = this.buffer;
    if (b.length < 1) return false;
    const format = b[0]! >> 6;
    let csid = b[0]! & 0x3f;
    let at = 1;
    if (csid === 0) {
      if (b.length < 2) return false;
      csid = 64 + b[1]!;
      at = 2;
    } else if (csid === 1) {
      if (b.length < 3) return false;
      csid = 64 + b[1]! + b[2]! * 256;
      at = 3;
    }
    const headerBytes = [11, 7, 3, 0][format]!;
    if (b.length < at + headerBytes) return false;
    const previous = this.streams.get(csid);
    if (format !== 0 && !previous) throw new RtmpProtocolError(`chunk stream ${csid} starts with a format ${format} header`);
    if (!previous && this.streams.size >= MAX_CHUNK_STREAMS)
      throw new RtmpProtocolError(`more than ${MAX_CHUNK_STREAMS} chunk streams on one connection`);
    const state: ChunkStreamState = previous ?? {
      timestamp: 0,
      delta: 0,
      length: 0,
      type: 0,
      streamId: 0,
      extended: false,
      parts: [],
      received: 0,
    };
    let stamp = 0;
    if (format <= 2) {
      // A new message header in the middle of a message starts over, as ffmpeg reads it: the
      // unfinished one is dropped (its length no longer holds for what follows).
      if (state.received > 0) this.dropPartial(state);
      stamp = b.readUIntBE(at, 3);
      if (format <= 1) {
        state.length = b.readUIntBE(at + 3, 3);
        state.type = b[at + 6]!;
        if (state.length > this.maxMessageBytes)
          throw new RtmpProtocolError(
            `a message of ${state.length} bytes is more than this relay takes (${this.maxMessageBytes} at this point)`,
          );
      }
      if (format === 0) state.streamId = b.readUInt32LE(at + 7);
      state.extended = stamp === 0xffffff;
    }
    at += headerBytes;
    if (state.extended) {
      if (b.length < at + 4) return false;
      stamp = b.readUInt32BE(at);
      at += 4;
    }
    const starting = state.received === 0;
    // A format 2 or 3 header reuses a length that may predate a lowered limit.
    if (starting && state.length > this.maxMessageBytes)
      throw new RtmpProtocolError(
        `a message of ${state.length} bytes is more than this relay takes (${this.maxMessageBytes} at this point)`,
      );
    const take = Math.min(this.chunkSize, state.length - state.received);
    // Unfinished messages on many chunk streams at once would each park up to the limit: two
    // messages' worth covers a video frame with audio interleaved, as publishers send them.
    if (this.parked + take > 2 * this.maxMessageBytes)
      throw new RtmpProtocolError(`unfinished messages hold more than ${2 * this.maxMessageBytes} bytes`);
    if (b.length < at + take) return false;

    if (starting) {
      if (format === 0) {
        state.timestamp = stamp;
        state.delta = 0;
      } else if (format === 1 || format === 2) {
        state.delta = stamp;
        state.timestamp = (state.timestamp + stamp) >>> 0;
      } else {
        // Format 3 starting a new message repeats the previous delta.
        state.timestamp = (state.timestamp + (state.extended ? stamp : state.delta)) >>> 0;
      }
    }
    this.streams.set(csid, state);
    const part = b.subarray(at, at + take);
    this.buffer = b.subarray(at + take);
    if (state.received + take < state.length) {
      // Kept as a copy: a slice would pin the whole socket read it came from, so a few bytes
      // counted here could hold tens of kilobytes each.
      state.parts.push(Buffer.from(part));
      state.received += take;
      this.parked += take;
      return true;
    }
    const payload = Buffer.concat([...state.parts, part]);
    this.dropPartial(state);
    this.onMessage({ type: state.type, streamId: state.streamId, timestamp: state.timestamp, payload });
    return true;
  }
}

function basicHeader(format: number, csid: number): Buffer {
  if (csid < 64) return Buffer.from([(format << 6) | csid]);
  if (csid < 320) return Buffer.from([format << 6, csid - 64]);
  return Buffer.from([(format << 6) | 1, (csid - 64) & 0xff, (csid - 64) >> 8]);
}

/** One message as chunks: a full (format 0) header, then format 3 continuations. */
export function writeChunks(csid: number, message: RtmpMessage, chunkSize: number): Buffer {
  const extended = message.timestamp >= 0xffffff;
  const header = Buffer.alloc(11);
  header.writeUIntBE(extended ? 0xffffff : message.timestamp, 0, 3);
  header.writeUIntBE(message.payload.length, 3, 3);
  header[6] = message.type;
  header.writeUInt32LE(message.streamId, 7);
  const stamp = Buffer.alloc(extended ? 4 : 0);
  if (extended) stamp.writeUInt32BE(message.timestamp >>> 0);
  const parts: Buffer[] = [basicHeader(0, csid), header, stamp];
  for (let at = 0; at < message.payload.length || at === 0; at += chunkSize) {
    if (at > 0) parts.push(basicHeader(3, csid), stamp);
    parts.push(message.payload.subarray(at, at + chunkSize));
    if (message.payload.length === 0) break;
  }
  return Buffer.concat(parts);
}
