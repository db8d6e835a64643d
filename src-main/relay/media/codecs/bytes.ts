/** Byte arrays joined into one (containers and bitstreams are built from parts). */
export function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  const out = unfilledBytes(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

/**
 * `length` bytes of an ArrayBuffer of their own, not zero-filled, for a caller that writes every
 * one of them: frames and fragments are made many times a second per camera, and clearing each
 * first was time spent for nothing.
 */
export function unfilledBytes(length: number): Uint8Array {
  return new Uint8Array(Buffer.allocUnsafeSlow(length).buffer, 0, length);
}
