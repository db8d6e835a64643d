import { STANDARD_AC_CHROMA, STANDARD_AC_LUMA, STANDARD_DC_CHROMA, STANDARD_DC_LUMA, type HuffmanSpec } from './jpeg-tables';

export interface JfifFrame {
  /** RFC 2435 type without the restart bit: 0 is 4:2:2, 1 is 4:2:0. */
  type: 0 | 1;
  width: number;
  height: number;
  /** Zigzag-ordered tables: 64 bytes (8-bit) or 128 bytes (16-bit, big-endian). */
  lumaTable: Uint8Array;
  chromaTable: Uint8Array;
  restartInterval: number;
}

/**
 * Everything a decoder needs in front of an RTP JPEG's scan data (RFC 2435 Appendix B, the
 * receiver's job): SOI, a JFIF APP0, DQT, SOF0 (SOF1 for 16-bit tables), the standard DHT, DRI when restart markers are
 * used, and SOS.
 */
export function jfifHeaders(frame: JfifFrame): Uint8Array {
  const parts: number[] = [0xff, 0xd8];
  segment(parts, 0xe0, [0x4a, 0x46, 0x49, 0x46, 0x00, 1, 1, 0, 0, 1, 0, 1, 0, 0]); // "JFIF\0" v1.1, aspect 1:1, no thumbnail
  segment(parts, 0xdb, [...quant(0, frame.lumaTable), ...quant(1, frame.chromaTable)]);
  // 16-bit quantization tables are not baseline: such a frame is extended sequential (SOF1).
  const extended = frame.lumaTable.length === 128 || frame.chromaTable.length === 128;
  segment(parts, extended ? 0xc1 : 0xc0, [
    8,
    frame.height >> 8,
    frame.height & 0xff,
    frame.width >> 8,
    frame.width & 0xff,
    3,
    1,
    frame.type === 0 ? 0x21 : 0x22,
    0, // Y: 2x1 (4:2:2) or 2x2 (4:2:0), table 0
    2,
    0x11,
    1, // Cb: 1x1, table 1
    3,
    0x11,
    1, // Cr: 1x1, table 1
  ]);
  segment(parts, 0xc4, [
    ...huffman(0x00, STANDARD_DC_LUMA),
    ...huffman(0x10, STANDARD_AC_LUMA),
    ...huffman(0x01, STANDARD_DC_CHROMA),
    ...huffman(0x11, STANDARD_AC_CHROMA),
  ]);
  if (frame.restartInterval > 0) segment(parts, 0xdd, [frame.restartInterval >> 8, frame.restartInterval & 0xff]);
  segment(parts, 0xda, [3, 1, 0x00, 2, 0x11, 3, 0x11, 0, 63, 0]);
  return Uint8Array.from(parts);
}

function segment(out: number[], marker: number, body: number[]): void {
  const length = body.length + 2;
  out.push(0xff, marker, length >> 8, length & 0xff, ...body);
}

function quant(id: number, table: Uint8Array): number[] {
  const precision = table.length === 128 ? 1 : 0;
  return [(precision << 4) | id, ...table];
}

function huffman(classAndId: number, table: HuffmanSpec): number[] {
  return [classAndId, ...table.counts, ...table.symbols];
}
