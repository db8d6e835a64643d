import { unfilledBytes } from './bytes';

/** A fresh slab holds about a second of a 2 Mbit/s camera; a larger frame gets a larger one. */
const SLAB_BYTES = 256 * 1024;

/**
 * Where a depacketizer writes its frames' AVCC bytes: one frame after another in a slab, each
 * frame handed on as a view of it, so a frame costs no allocation of its own. A full slab is
 * left to the frames that are views of it (the collector frees it with the last) and the frame
 * being written moves to a new one.
 *
 * Offsets given out (`beginUnit`) count from the start of the frame being written, so they stay
 * right when it moves.
 */
export function createFrameSlab() {
  let slab = unfilledBytes(SLAB_BYTES);
  /** Where the frame being written starts. */
  let start = 0;
  /** Where its next byte goes. */
  let end = 0;

  const room = (bytes: number) => {
    if (end + bytes <= slab.length) return;
    const written = end - start;
    const next = unfilledBytes(Math.max(SLAB_BYTES, 2 * (written + bytes)));
    next.set(slab.subarray(start, end));
    slab = next;
    start = 0;
    end = written;
  };

  return {
    /** Starts a NAL unit: its 4-byte length, filled in by `endUnit`. Returns where it starts. */
    beginUnit(): number {
      room(4);
      end += 4;
      return end - 4 - start;
    },
    append(bytes: Uint8Array): void {
      room(bytes.length);
      slab.set(bytes, end);
      end += bytes.length;
    },
    appendByte(byte: number): void {
      room(1);
      slab[end++] = byte;
    },
    /** Writes the length of the unit begun at `at`; returns the unit (a view, without its length). */
    endUnit(at: number): Uint8Array {
      const lengthAt = start + at;
      const size = end - lengthAt - 4;
      slab[lengthAt] = size >>> 24;
      slab[lengthAt + 1] = (size >>> 16) & 0xff;
      slab[lengthAt + 2] = (size >>> 8) & 0xff;
      slab[lengthAt + 3] = size & 0xff;
      return slab.subarray(lengthAt + 4, end);
    },
    /** Forgets what was written since `at` (a unit begun there that will not end). */
    truncate(at: number): void {
      end = start + at;
    },
    /** The frame written so far, as a view; the next frame starts after it. */
    take(): Uint8Array {
      const frame = slab.subarray(start, end);
      start = end;
      return frame;
    },
    /** Forgets the frame being written. */
    discard(): void {
      end = start;
    },
  };
}
