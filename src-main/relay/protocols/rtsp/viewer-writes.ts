import type { Socket } from 'node:net';
import { serializeRtpPacket, type RtpPacket } from '../../core/rtp-packet';

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
 */
export function createViewerWrites(options: { holdMs?: number } = {}) {
  const holdMs = options.holdMs ?? DEFAULT_HOLD_MS;
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
        socket.write(batch.frames[0]);
      } else if (sent && sameFrames(sent, batch)) {
        sentJoined ??= joinFrames(batch);
        socket.write(sentJoined);
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
    if (heldUntil !== Infinity) holdTimer = setTimeout(flush, Math.max(0, heldUntil - now));
  }

  return {
    frame(packet: RtpPacket, channel: number, payloadType: number): Buffer {
      const key = (channel << 8) | payloadType;
      let entry = frames.get(packet);
      if (entry?.key === key) return entry.frame;
      const cached = entry?.others?.get(key);
      if (cached) return cached;
      const frame = serializeRtpPacket(packet, payloadType, packet.ssrc, 4);
      frame[0] = 0x24;
      frame[1] = channel;
      frame.writeUInt16BE(frame.length - 4, 2);
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

/** The batch's frames as one buffer. */
function joinFrames(batch: Batch): Buffer {
  const joined = Buffer.allocUnsafe(batch.bytes);
  let at = 0;
  for (let i = 0; i < batch.count; i++) {
    joined.set(batch.frames[i]!, at);
    at += batch.frames[i]!.length;
  }
  return joined;
}

export type ViewerWrites = ReturnType<typeof createViewerWrites>;
