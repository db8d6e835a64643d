/** The most a single picture may take before the splitter gives up on it (a stream without EOI). */
const MAX_PICTURE = 32 * 1024 * 1024;

/**
 * Splits a byte stream of JPEGs one after another (ffmpeg's `-f mjpeg`) into pictures. It walks
 * the marker segments by their lengths and the scan data up to its EOI, so FF D9 bytes inside an
 * APP segment (an EXIF thumbnail) do not cut a picture in two. Bytes between pictures are skipped.
 */
export function createJpegSplitter(onPicture: (jpeg: Uint8Array) => void): { push(chunk: Uint8Array): void } {
  let pending: Buffer = Buffer.alloc(0);
  /** Where to go on reading the current picture, so a chunk never makes us rescan the last. */
  let cursor = 0;
  let inScan = false;

  const reset = (keepFrom: number) => {
    pending = pending.subarray(keepFrom);
    cursor = 0;
    inScan = false;
  };

  return {
    push(chunk) {
      pending = pending.length === 0 ? Buffer.from(chunk) : Buffer.concat([pending, chunk]);
      for (;;) {
        if (cursor === 0) {
          const start = pending.indexOf(SOI);
          if (start < 0) {
            reset(Math.max(0, pending.length - 1)); // keep a trailing FF: SOI may be split
            return;
          }
          reset(start);
          cursor = 2;
        }
        const end = advance();
        if (end === undefined) {
          if (pending.length > MAX_PICTURE) reset(pending.length); // no end in sight: drop it
          return;
        }
        onPicture(Uint8Array.prototype.slice.call(pending, 0, end));
        reset(end);
      }
    },
  };

  /** Walks from `cursor`; returns the end of the picture (after EOI) or undefined when more bytes are needed. */
  function advance(): number | undefined {
    while (cursor + 1 < pending.length) {
      if (inScan) {
        if (pending[cursor] !== 0xff) {
          cursor++;
          continue;
        }
        const next = pending[cursor + 1]!;
        if (next === 0x00 || (next >= 0xd0 && next <= 0xd7)) {
          cursor += 2;
          continue;
        }
        if (next === 0xff) {
          cursor++;
          continue;
        }
        inScan = false; // a marker ends the scan: EOI, or the tables of a next scan
      }
      if (pending[cursor] !== 0xff) {
        cursor++; // not where a marker should be: resync on the next FF
        continue;
      }
      const marker = pending[cursor + 1]!;
      if (marker === 0xd9) return cursor + 2;
      if (marker === 0xff || marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
        cursor += marker === 0xff ? 1 : 2;
        continue;
      }
      if (cursor + 4 > pending.length) return undefined;
      const length = pending.readUInt16BE(cursor + 2);
      if (cursor + 2 + length > pending.length) return undefined;
      cursor += 2 + length;
      if (marker === 0xda) inScan = true;
    }
    return undefined;
  }
}

const SOI = Buffer.from([0xff, 0xd8]);
