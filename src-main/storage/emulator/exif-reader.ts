/** A small TIFF/EXIF reader for the `exif` query: named entries as `{val, type}`, no dependency. */

const TAG_NAMES: Record<number, string> = {
  0x010f: 'Make',
  0x0110: 'Model',
  0x0112: 'Orientation',
  0x011a: 'XResolution',
  0x011b: 'YResolution',
  0x0128: 'ResolutionUnit',
  0x0131: 'Software',
  0x0132: 'DateTime',
  0x013b: 'Artist',
  0x8298: 'Copyright',
  0x829a: 'ExposureTime',
  0x829d: 'FNumber',
  0x8827: 'ISOSpeedRatings',
  0x9000: 'ExifVersion',
  0x9003: 'DateTimeOriginal',
  0x9004: 'DateTimeDigitized',
  0x9201: 'ShutterSpeedValue',
  0x9202: 'ApertureValue',
  0x9209: 'Flash',
  0x920a: 'FocalLength',
  0xa001: 'ColorSpace',
  0xa002: 'PixelXDimension',
  0xa003: 'PixelYDimension',
  0x010e: 'ImageDescription',
};

const ORIENTATION = ['', 'Top-left', 'Top-right', 'Bottom-right', 'Bottom-left', 'Left-top', 'Right-top', 'Right-bottom', 'Left-bottom'];
const TYPE_SIZE: Record<number, number> = { 1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 7: 1, 9: 4, 10: 8 };

export type ExifEntries = Record<string, { val: string; type: number }>;

/** `exif` is the buffer sharp reports (starting with `Exif\0\0` then the TIFF header). */
export function readExif(exif: Buffer): ExifEntries {
  let tiff = exif;
  if (tiff.subarray(0, 4).toString('latin1') === 'Exif') tiff = tiff.subarray(6);
  if (tiff.length < 8) return {};
  const little = tiff.toString('latin1', 0, 2) === 'II';
  const u16 = (o: number) => (little ? tiff.readUInt16LE(o) : tiff.readUInt16BE(o));
  const u32 = (o: number) => (little ? tiff.readUInt32LE(o) : tiff.readUInt32BE(o));
  const i32 = (o: number) => (little ? tiff.readInt32LE(o) : tiff.readInt32BE(o));
  const out: ExifEntries = {};
  const seen = new Set<number>();

  const readIfd = (offset: number): void => {
    if (seen.has(offset) || offset + 2 > tiff.length) return;
    seen.add(offset);
    const count = u16(offset);
    for (let i = 0; i < count; i++) {
      const at = offset + 2 + i * 12;
      if (at + 12 > tiff.length) return;
      const tag = u16(at);
      const type = u16(at + 2);
      const n = u32(at + 4);
      const size = (TYPE_SIZE[type] ?? 1) * n;
      const valueAt = size <= 4 ? at + 8 : u32(at + 8);
      if (tag === 0x8769) {
        readIfd(u32(at + 8));
        continue;
      }
      const name = TAG_NAMES[tag];
      if (!name || valueAt + size > tiff.length) continue;
      let val: string;
      if (type === 2) val = tiff.toString('latin1', valueAt, valueAt + n).replace(/\0+$/, '');
      else if (type === 3) val = String(u16(valueAt));
      else if (type === 4 || type === 9) val = String(type === 4 ? u32(valueAt) : i32(valueAt));
      else if (type === 5 || type === 10) {
        const num = type === 5 ? u32(valueAt) : i32(valueAt);
        const den = type === 5 ? u32(valueAt + 4) : i32(valueAt + 4);
        val = den === 1 ? String(num) : `${num}/${den}`;
      } else val = tiff.subarray(valueAt, valueAt + Math.min(size, 64)).toString('latin1');
      if (name === 'Orientation') val = ORIENTATION[Number(val)] ?? val;
      out[name] = { val, type };
    }
  };
  readIfd(u32(4));
  return out;
}
