/**
 * Where the JPEG that starts at `start` (at its SOI) ends, one past its EOI; undefined while the
 * bytes so far hold only part of it. Marker segments are skipped by their lengths and entropy-
 * coded data is scanned for the first marker that is not a stuffed 0xFF or a restart marker, so
 * an EXIF thumbnail's own EOI does not cut the picture short.
 */
export function findJpegEnd(bytes: Uint8Array, start = 0): number | undefined {
  let at = start + 2;
  while (at + 2 <= bytes.length) {
    if (bytes[at] !== 0xff) throw new Error(`JPEG: expected a marker at byte ${at - start} of the picture`);
    const marker = bytes[at + 1]!;
    if (marker === 0xff) {
      at++; // fill byte
      continue;
    }
    if (marker === 0xd9) return at + 2;
    if (at + 4 > bytes.length) return undefined;
    const length = (bytes[at + 2]! << 8) | bytes[at + 3]!;
    if (length < 2) throw new Error(`JPEG: marker 0x${marker.toString(16)} has a length of ${length}`);
    at += 2 + length;
    if (marker !== 0xda) continue;
    // After the start-of-scan header comes entropy-coded data up to the next real marker.
    for (; at + 1 < bytes.length; at++) {
      if (bytes[at] !== 0xff) continue;
      const next = bytes[at + 1]!;
      if (next === 0x00 || (next >= 0xd0 && next <= 0xd7) || next === 0xff) continue;
      break;
    }
    if (at + 1 >= bytes.length) return undefined;
  }
  return undefined;
}

export const isJpegStart = (bytes: Uint8Array, at = 0): boolean => bytes[at] === 0xff && bytes[at + 1] === 0xd8;
