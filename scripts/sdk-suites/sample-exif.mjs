// A JPEG with an EXIF block (APP1, a TIFF header and one IFD naming the camera's make), made from
// a plain JPEG: the suites read `?exif` of an image that has one and expect an error for one that
// has none.
export function exifJpeg(jpeg, make) {
  if (jpeg[0] !== 0xff || jpeg[1] !== 0xd8) throw new Error('not a JPEG');
  const text = Buffer.from(`${make}\0`, 'latin1');
  // TIFF (little endian): header, IFD0 with one entry (0x010f Make, ASCII), next-IFD 0, then the text.
  const tiff = Buffer.alloc(8 + 2 + 12 + 4 + text.length);
  tiff.write('II', 0, 'latin1');
  tiff.writeUInt16LE(42, 2);
  tiff.writeUInt32LE(8, 4);
  tiff.writeUInt16LE(1, 8);
  tiff.writeUInt16LE(0x010f, 10);
  tiff.writeUInt16LE(2, 12);
  tiff.writeUInt32LE(text.length, 14);
  tiff.writeUInt32LE(26, 18);
  tiff.writeUInt32LE(0, 22);
  text.copy(tiff, 26);
  const payload = Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), tiff]);
  const segment = Buffer.alloc(4);
  segment.writeUInt16BE(0xffe1, 0);
  segment.writeUInt16BE(payload.length + 2, 2);
  return Buffer.concat([jpeg.subarray(0, 2), segment, payload, jpeg.subarray(2)]);
}
