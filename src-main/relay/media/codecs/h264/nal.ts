import { unfilledBytes } from '../bytes';
/** NAL units of an Annex B byte stream (start codes 00 00 01 / 00 00 00 01 removed). */
export function splitAnnexB(bytes: Uint8Array): Uint8Array[] {
  const units: Uint8Array[] = [];
  let start = -1;
  let i = 0;
  while (i + 2 < bytes.length) {
    if (bytes[i] === 0 && bytes[i + 1] === 0 && bytes[i + 2] === 1) {
      if (start >= 0) units.push(trimTrailingZeros(bytes.subarray(start, i)));
      i += 3;
      start = i;
    } else {
      i++;
    }
  }
  if (start >= 0 && start < bytes.length) units.push(bytes.subarray(start));
  return units.filter((u) => u.length > 0);
}

function trimTrailingZeros(unit: Uint8Array): Uint8Array {
  let end = unit.length;
  while (end > 0 && unit[end - 1] === 0) end--;
  return unit.subarray(0, end);
}

/** AVCC: each NAL unit behind its 4-byte big-endian length, as MP4 stores them. */
export function toAvcc(units: readonly Uint8Array[]): Uint8Array {
  const out = unfilledBytes(units.reduce((n, u) => n + 4 + u.length, 0));
  const view = new DataView(out.buffer);
  let offset = 0;
  for (const unit of units) {
    view.setUint32(offset, unit.length);
    out.set(unit, offset + 4);
    offset += 4 + unit.length;
  }
  return out;
}

export function fromAvcc(data: Uint8Array): Uint8Array[] {
  const units: Uint8Array[] = [];
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  let offset = 0;
  while (offset + 4 <= data.length) {
    const size = view.getUint32(offset);
    if (size === 0 || offset + 4 + size > data.length) break;
    units.push(data.subarray(offset + 4, offset + 4 + size));
    offset += 4 + size;
  }
  return units;
}

export const h264NalType = (unit: Uint8Array): number => unit[0]! & 0x1f;
