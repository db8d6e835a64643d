import type { HuffmanSpec } from './jpeg-tables';

/** A JPEG that cannot be read, or that RTP JPEG (RFC 2435) cannot carry; the message says which. */
export class JpegError extends Error {
  override name = 'JpegError';
}

interface JpegComponent {
  id: number;
  /** Sampling factors. */
  h: number;
  v: number;
  /** Quantization table id. */
  tq: number;
}

interface JpegScanComponent {
  id: number;
  /** DC and AC Huffman table ids. */
  td: number;
  ta: number;
}

export interface QuantTable {
  /** 0: 8-bit entries, 1: 16-bit entries. */
  precision: 0 | 1;
  /** 64 entries in zigzag order. */
  values: Uint16Array;
}

/** What an RTP JPEG sender needs from a JPEG: the frame, its tables, and its one scan. */
export interface ParsedJpeg {
  /** The SOF marker's low nibble: 0 baseline, 1 extended sequential, 2 progressive, ... */
  sofType: number;
  precision: number;
  width: number;
  height: number;
  components: JpegComponent[];
  quantTables: Map<number, QuantTable>;
  /** Keyed `dc0`, `dc1`, `ac0`, `ac1`: the tables as the file defines them. */
  huffmanTables: Map<string, HuffmanSpec>;
  restartInterval: number;
  scan: { components: JpegScanComponent[]; ss: number; se: number; ah: number; al: number };
  /** The entropy-coded data of the first scan, up to (not including) EOI. */
  entropy: Uint8Array;
}

const SOI = 0xd8;
const EOI = 0xd9;
const SOS = 0xda;
const DQT = 0xdb;
const DHT = 0xc4;
const DRI = 0xdd;

const isSof = (marker: number) => marker >= 0xc0 && marker <= 0xcf && marker !== DHT && marker !== 0xc8 && marker !== 0xcc;

/**
 * Reads a JPEG's markers up to its first scan, and finds where that scan's entropy-coded data
 * ends (the first marker that is not a stuffed byte or a restart marker).
 */
export function parseJpeg(bytes: Uint8Array): ParsedJpeg {
  if (bytes.length < 4 || bytes[0] !== 0xff || bytes[1] !== SOI) throw new JpegError('not a JPEG: it does not start with SOI (FF D8)');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const quantTables = new Map<number, QuantTable>();
  const huffmanTables = new Map<string, HuffmanSpec>();
  let frame: Pick<ParsedJpeg, 'sofType' | 'precision' | 'width' | 'height' | 'components'> | undefined;
  let restartInterval = 0;
  let offset = 2;
  for (;;) {
    // Markers may be preceded by any number of 0xFF fill bytes.
    while (offset < bytes.length && bytes[offset] === 0xff && bytes[offset + 1] === 0xff) offset++;
    if (offset + 4 > bytes.length) throw new JpegError('JPEG ends before its scan (no SOS marker)');
    if (bytes[offset] !== 0xff) throw new JpegError(`JPEG marker expected at byte ${offset}`);
    const marker = bytes[offset + 1]!;
    if (marker === EOI) throw new JpegError('JPEG ends before its scan (EOI before SOS)');
    const length = view.getUint16(offset + 2);
    const body = bytes.subarray(offset + 4, offset + 2 + length);
    if (length < 2 || body.length !== length - 2) throw new JpegError(`JPEG segment FF ${hex(marker)} at byte ${offset} is truncated`);
    offset += 2 + length;
    if (marker === DQT) readQuantTables(body, quantTables);
    else if (marker === DHT) readHuffmanTables(body, huffmanTables);
    else if (marker === DRI) restartInterval = (body[0]! << 8) | body[1]!;
    else if (isSof(marker)) frame = readFrame(marker, body);
    else if (marker === SOS) {
      if (!frame) throw new JpegError('JPEG scan before its frame header (SOS before SOF)');
      const scan = readScan(body);
      const end = entropyEnd(bytes, offset);
      return { ...frame, quantTables, huffmanTables, restartInterval, scan, entropy: bytes.subarray(offset, end) };
    }
    // APPn, COM and the rest carry nothing a decoder of this picture needs.
  }
}

function readQuantTables(body: Uint8Array, tables: Map<number, QuantTable>): void {
  let i = 0;
  while (i < body.length) {
    const precision = body[i]! >> 4;
    const id = body[i]! & 0x0f;
    const size = precision ? 128 : 64;
    if (precision > 1 || i + 1 + size > body.length) throw new JpegError('JPEG quantization table (DQT) is malformed');
    const values = new Uint16Array(64);
    for (let k = 0; k < 64; k++) values[k] = precision ? (body[i + 1 + 2 * k]! << 8) | body[i + 2 + 2 * k]! : body[i + 1 + k]!;
    tables.set(id, { precision: precision as 0 | 1, values });
    i += 1 + size;
  }
}

function readHuffmanTables(body: Uint8Array, tables: Map<string, HuffmanSpec>): void {
  let i = 0;
  while (i < body.length) {
    const tableClass = body[i]! >> 4;
    const id = body[i]! & 0x0f;
    if (i + 17 > body.length) throw new JpegError('JPEG Huffman table (DHT) is malformed');
    const counts = body.slice(i + 1, i + 17);
    const total = counts.reduce((a, b) => a + b, 0);
    if (i + 17 + total > body.length) throw new JpegError('JPEG Huffman table (DHT) is malformed');
    tables.set(`${tableClass ? 'ac' : 'dc'}${id}`, { counts, symbols: body.slice(i + 17, i + 17 + total) });
    i += 17 + total;
  }
}

function readFrame(marker: number, body: Uint8Array): Pick<ParsedJpeg, 'sofType' | 'precision' | 'width' | 'height' | 'components'> {
  if (body.length < 6) throw new JpegError('JPEG frame header (SOF) is truncated');
  const count = body[5]!;
  if (body.length < 6 + 3 * count) throw new JpegError('JPEG frame header (SOF) is truncated');
  const components: JpegComponent[] = [];
  for (let c = 0; c < count; c++) {
    const at = 6 + 3 * c;
    components.push({ id: body[at]!, h: body[at + 1]! >> 4, v: body[at + 1]! & 0x0f, tq: body[at + 2]! });
  }
  return { sofType: marker & 0x0f, precision: body[0]!, height: (body[1]! << 8) | body[2]!, width: (body[3]! << 8) | body[4]!, components };
}

function readScan(body: Uint8Array): ParsedJpeg['scan'] {
  const count = body[0] ?? 0;
  if (body.length < 1 + 2 * count + 3) throw new JpegError('JPEG scan header (SOS) is truncated');
  const components: JpegScanComponent[] = [];
  for (let c = 0; c < count; c++) components.push({ id: body[1 + 2 * c]!, td: body[2 + 2 * c]! >> 4, ta: body[2 + 2 * c]! & 0x0f });
  const at = 1 + 2 * count;
  return { components, ss: body[at]!, se: body[at + 1]!, ah: body[at + 2]! >> 4, al: body[at + 2]! & 0x0f };
}

/** The offset of the first marker after entropy-coded data (FF 00 is a stuffed byte, FF D0-D7 a restart). */
function entropyEnd(bytes: Uint8Array, from: number): number {
  for (let i = from; i + 1 < bytes.length; i++) {
    if (bytes[i] !== 0xff) continue;
    const next = bytes[i + 1]!;
    if (next === 0x00 || next === 0xff || (next >= 0xd0 && next <= 0xd7)) continue;
    return i;
  }
  return bytes.length; // no EOI: the data runs to the end
}

const hex = (n: number) => n.toString(16).toUpperCase().padStart(2, '0');
