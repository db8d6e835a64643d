const HEADER_END = [13, 10, 13, 10];

function indexOf(haystack: Uint8Array, needle: readonly number[], from = 0): number {
  outer: for (let i = from; i <= haystack.length - needle.length; i++) {
    for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}

const MAX_HEADER_BYTES = 4096;

/**
 * Splits a `multipart/x-mixed-replace` MJPEG body (go2rtc's `--frame` parts, each with a
 * Content-Length) into pictures as bytes arrive in chunks of any size. Throws on a part without
 * a length, so a wrong answer fails the mode instead of filling memory.
 */
export function createMultipartJpegReader(): { push(chunk: Uint8Array): Uint8Array[] } {
  let buffer = new Uint8Array(0);
  return {
    push(chunk) {
      const joined = new Uint8Array(buffer.length + chunk.length);
      joined.set(buffer);
      joined.set(chunk, buffer.length);
      buffer = joined;
      const pictures: Uint8Array[] = [];
      for (;;) {
        const headerEnd = indexOf(buffer, HEADER_END);
        if (headerEnd < 0) {
          if (buffer.length > MAX_HEADER_BYTES) throw new Error('not an MJPEG stream: no part header');
          break;
        }
        const header = new TextDecoder().decode(buffer.subarray(0, headerEnd));
        const length = /content-length:\s*(\d+)/i.exec(header)?.[1];
        if (length === undefined) throw new Error('an MJPEG part without Content-Length');
        const start = headerEnd + 4;
        const end = start + Number(length);
        if (buffer.length < end) break;
        pictures.push(buffer.slice(start, end));
        buffer = buffer.slice(end);
      }
      return pictures;
    },
  };
}
