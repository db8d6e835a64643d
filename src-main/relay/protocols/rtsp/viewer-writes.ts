import type { Socket } from 'node:net';
import { serializeRtpPacket, type RtpPacket } from '../../core/rtp-packet';
import { createSocketWriter, type SocketWriter } from './socket-writer';

/** A viewer's connection as the writer sees it: its socket, and how to wake its senders once there is room again. */
export interface ViewerOutput {
  readonly socket: Socket;
  onRoom(): void;
}

/**
 * A viewer's frames not yet handed to its socket. One per viewer for its lifetime, emptied after
 * each write rather than made anew: at a hundred viewers a new batch and list per picture was
 * most of what the fan-out allocated, and what the young generation promoted.
 */
interface Batch {
  readonly output: ViewerOutput;
  /**
   * The batch is `frames[0..count)`. Entries past `count` are left as they were: emptying the
   * list (length 0) would give up its storage, and the next picture would grow it anew.
   */
  frames: Buffer[];
  count: number;
  bytes: number;
  /** The last frame is a video packet without the marker bit: the rest of its picture is still to come. */
  open: boolean;
  /** When the batch's first frame came (ms, performance clock): an open picture is held at most `holdMs` from here. */
  since: number;
  /** `write` said "full" for this batch: the viewer's senders wait for `onRoom`. */
  full: boolean;
}

/** How long a picture whose packets straddle event-loop turns may hold its first packets back. */
const DEFAULT_HOLD_MS = 1;

/**
 * How the RTSP server writes to its TCP viewers, made for many viewers of one camera, where the
 * kernel's per-write cost is most of the relay's CPU:
 *
 * - A packet's interleaved frame (`$`, channel, length, RTP) is built once and the same bytes go
 *   to every viewer with that channel and payload type (almost always all of them).
 * - A viewer's frames gather for the event-loop turn, and while a picture is incomplete (its
 *   last packet, the one with the marker bit, has not come) for at most `holdMs` more: a picture
 *   leaves in one write per viewer, not one per packet or per turn it straddles.
 * - When viewers' batches hold the same frames (they do, unless one joined or fell behind in
 *   between), the bytes are joined once and the same buffer goes to each of the others: one
 *   plain write per viewer, without a writev's list or Node's per-chunk stream bookkeeping. The
 *   first viewer's batch goes out as its frames, uncopied, so a lone viewer costs no copy.
 * - A picture in one buffer (joined, or a lone frame) goes out through `write`: by default
 *   Node's socket write; the server gives the native writer (`socket-writer.ts`).
 */
export function createViewerWrites(options: { holdMs?: number; write?: SocketWriter } = {}) {
  const holdMs = options.holdMs ?? DEFAULT_HOLD_MS;
  const writeTo: SocketWriter = options.write ?? createSocketWriter(undefined);
  // Per packet: the frame of the common (channel, payload type), and others if any viewer
  // differs. Kept per packet, not just for the latest one: viewers catching up from the cached
  // GOP or their queue then share their frames too, where a megabyte of GOP each would add up.
  const frames = new WeakMap<RtpPacket, { key: number; frame: Buffer; others?: Map<number, Buffer> }>();
  const batches = new WeakMap<ViewerOutput, Batch>();
  /** Batches with frames, in the order their first frame came; held ones stay ahead of later ones. */
  let queued: Batch[] = [];
  /** The list `queued` was before the last flush, kept to be the next one (no new list per turn). */
  let spare: Batch[] = [];
  let flushQueued = false;
  let holdTimer: NodeJS.Timeout | undefined;
  const joins = createJoinSpace();

  const queueFlush = () => {
    if (flushQueued) return;
    flushQueued = true;
    setImmediate(flush);
  };

  function flush(): void {
    flushQueued = false;
    if (holdTimer) {
      clearTimeout(holdTimer);
      holdTimer = undefined;
    }
    const now = performance.now();
    let heldUntil = Infinity;
    // The last batch sent, and its bytes once joined: the next viewer's batch is usually the same frames.
    let sent: { frames: Buffer[]; count: number } | undefined;
    let sentJoined: Buffer | undefined;
    const due = queued;
    queued = spare;
    for (const batch of due) {
      const { socket } = batch.output;
      if (batch.open && now - batch.since < holdMs && !socket.destroyed) {
        heldUntil = Math.min(heldUntil, batch.since + holdMs);
        queued.push(batch);
        continue;
      }
      const full = batch.full;
      if (socket.destroyed) {
        // Gone mid-picture: nothing to send, and nobody to wake.
      } else if (batch.count === 1) {
        writeTo(socket, batch.frames[0]!);
      } else if (sent && sameFrames(sent, batch)) {
        sentJoined ??= joinFrames(batch, joins.take(batch.bytes));
        writeTo(socket, sentJoined);
        joins.wrote(sentJoined, socket);
      } else {
        // The first batch of its kind goes out as its frames, uncopied, in one writev; they are
        // joined only when the next viewer's batch turns out the same (a lone viewer, or one
        // starting with the cached GOP, never pays for a copy). Its list is kept to compare
        // with, so the batch takes a new one.
        sent = { frames: batch.frames, count: batch.count };
        sentJoined = undefined;
        socket.cork();
        for (let i = 0; i < batch.count; i++) socket.write(batch.frames[i]);
        socket.uncork();
        batch.frames = [];
      }
      // Emptied before the viewer is woken: what its senders write then starts the next batch.
      batch.count = 0;
      batch.bytes = 0;
      batch.full = false;
      // A socket that could not take it all emits 'drain' later, which wakes the viewer; one
      // that took it all never will, so a viewer told "full" by `write` is woken here.
      if (full && !socket.destroyed && !socket.writableNeedDrain) batch.output.onRoom();
    }
    due.length = 0;
    spare = due;
    joins.flushed();
    if (heldUntil !== Infinity) holdTimer = setTimeout(flush, Math.max(0, heldUntil - now));
  }

  return {
    frame(packet: RtpPacket, channel: number, payloadType: number): Buffer {
      const key = (channel << 8) | payloadType;
      let entry = frames.get(packet);
      if (entry?.key === key) return entry.frame;
      const cached = entry?.others?.get(key);
      if (cached) return cached;
      const frame = frameInPlace(packet, channel, payloadType) ?? serializedFrame(packet, channel, payloadType);
      if (!entry) {
        entry = { key, frame };
        frames.set(packet, entry);
      } else {
        (entry.others ??= new Map()).set(key, frame);
      }
      return frame;
    },

    /**
     * Adds a frame to the viewer's batch. `open` says the frame is a video packet before its
     * picture's last one. False, as `socket.write` would say, when the viewer's socket and batch
     * hold as much as the socket should: its senders then wait for `output.onRoom`.
     */
    write(output: ViewerOutput, frame: Buffer, open: boolean): boolean {
      let batch = batches.get(output);
      if (!batch) {
        batch = { output, frames: [], count: 0, bytes: 0, open, since: 0, full: false };
        batches.set(output, batch);
      }
      if (batch.count === 0) {
        batch.since = performance.now();
        queued.push(batch);
      }
      batch.frames[batch.count++] = frame;
      batch.bytes += frame.length;
      batch.open = open;
      queueFlush();
      const { socket } = output;
      if (socket.writableNeedDrain || socket.writableLength + batch.bytes >= socket.writableHighWaterMark) batch.full = true;
      return !batch.full;
    },
  };
}

function sameFrames(a: { frames: Buffer[]; count: number }, b: Batch): boolean {
  if (a.count !== b.count) return false;
  for (let i = 0; i < a.count; i++) if (a.frames[i] !== b.frames[i]) return false;
  return true;
}

/** The batch's frames as one buffer: `into`, which is exactly `batch.bytes` long. */
function joinFrames(batch: Batch, into: Buffer): Buffer {
  const joined = into;
  let at = 0;
  for (let i = 0; i < batch.count; i++) {
    joined.set(batch.frames[i]!, at);
    at += batch.frames[i]!.length;
  }
  return joined;
}

export type ViewerWrites = ReturnType<typeof createViewerWrites>;

/** The header of an interleaved frame (`$`, channel, length) and of the RTP packet in it, without CSRCs or an extension. */
const FRAME_HEADER_BYTES = 16;

/**
 * The packet's interleaved frame as it already lies in memory, or undefined. A packet read from
 * an RTSP connection (a camera we pull, or one publishing to us) is a view of the read, just
 * after the frame that brought it: when that frame's 16 header bytes are exactly the ones this
 * viewer needs (its channel, payload type and SSRC, no CSRCs, extension or padding), the frame is
 * handed on as a view of those bytes instead of copied. At a hundred viewers the copy was one
 * buffer per packet, 2 Mbit/s of allocations that only a collection gives back. What was read is
 * never written again (a connection's next read goes past it), so the view stays as it was.
 */
function frameInPlace(packet: RtpPacket, channel: number, payloadType: number): Buffer | undefined {
  const { payload } = packet;
  const start = payload.byteOffset - FRAME_HEADER_BYTES;
  if (start < 0) return undefined;
  const frame = Buffer.from(payload.buffer, start, FRAME_HEADER_BYTES + payload.length);
  const length = 12 + payload.length;
  const matches =
    frame[0] === 0x24 &&
    frame[1] === channel &&
    frame.readUInt16BE(2) === length &&
    frame[4] === 0x80 &&
    frame[5] === ((packet.marker ? 0x80 : 0) | (payloadType & 0x7f)) &&
    frame.readUInt16BE(6) === (packet.sequenceNumber & 0xffff) &&
    frame.readUInt32BE(8) === packet.timestamp >>> 0 &&
    frame.readUInt32BE(12) === packet.ssrc >>> 0;
  return matches ? frame : undefined;
}

/** The packet's interleaved frame, written anew. */
function serializedFrame(packet: RtpPacket, channel: number, payloadType: number): Buffer {
  const frame = serializeRtpPacket(packet, payloadType, packet.ssrc, 4);
  frame[0] = 0x24;
  frame[1] = channel;
  frame.writeUInt16BE(frame.length - 4, 2);
  return frame;
}

/** Room joined pictures are written into when they need no more (a 2 Mbit/s camera's keyframe fits). */
const JOIN_SPACE_BYTES = 256 * 1024;

/**
 * Where a flush joins a picture for many viewers: one buffer, used again by the next flush when
 * every socket it went to took all of it into the kernel at once (the socket's `writableLength`
 * back to 0 right after the write, so Node holds no reference to it). A socket that queued it
 * keeps it, and the next join gets a new buffer. Before, each picture was joined into a buffer
 * of its own, freed only by a collection: at a hundred viewers a megabyte every few seconds that
 * the allocator kept.
 */
function createJoinSpace() {
  let space: Buffer | undefined;
  /** Joined into during this flush: no second join may overwrite it before the flush ends. */
  let taken = false;
  return {
    /** A buffer of exactly `bytes` to join into: a view of the space when it is free and large enough, else a new one. */
    take(bytes: number): Buffer {
      if (taken || bytes > JOIN_SPACE_BYTES) return Buffer.allocUnsafe(bytes);
      space ??= Buffer.allocUnsafeSlow(JOIN_SPACE_BYTES);
      taken = true;
      return space.subarray(0, bytes);
    },
    /** After writing `joined` to the socket: a socket that did not hand it all to the kernel keeps the space. */
    wrote(joined: Buffer, socket: Socket): void {
      if (space && joined.buffer === space.buffer && socket.writableLength > 0) space = undefined;
    },
    /** The flush is over: the space (if no socket kept it) is free for the next one. */
    flushed(): void {
      taken = false;
    },
  };
}
