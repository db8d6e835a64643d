import { JpegError, type ParsedJpeg } from './jpeg-parse';
import { STANDARD_AC_CHROMA, STANDARD_AC_LUMA, STANDARD_DC_CHROMA, STANDARD_DC_LUMA, type HuffmanSpec } from './jpeg-tables';

/** Sampling factors of Y and of both chroma components, in the layout RFC 2435 expects. */
export interface TargetLayout {
  y: { h: number; v: number };
  restartInterval: number;
}

/** One component's quantized DCT coefficients, 64 per block (zigzag order), blocks row by row. */
interface Plane {
  blocksWide: number;
  blocksHigh: number;
  coefficients: Int16Array;
}

/**
 * Re-codes a baseline JPEG's scan for RTP JPEG (RFC 2435), losslessly: the quantized
 * coefficients are read with the file's own Huffman tables and written again with the standard
 * tables (the only ones an RTP JPEG receiver knows), in the MCU layout of type 0 (Y 2x1) or
 * type 1 (Y 2x2). ffmpeg, for one, writes 4:2:2 as Y 2x2 with chroma 1x2, which is the same
 * picture in another block order. No pixel changes: no DCT, no quantization.
 */
export function transcodeScan(jpeg: ParsedJpeg, target: TargetLayout): Uint8Array {
  const planes = decodePlanes(jpeg);
  return encodePlanes(planes, jpeg.width, jpeg.height, target);
}

function decodePlanes(jpeg: ParsedJpeg): Plane[] {
  const hMax = Math.max(...jpeg.components.map((c) => c.h));
  const vMax = Math.max(...jpeg.components.map((c) => c.v));
  const mcusX = Math.ceil(jpeg.width / (8 * hMax));
  const mcusY = Math.ceil(jpeg.height / (8 * vMax));
  const layout = jpeg.scan.components.map((sc) => {
    const component = jpeg.components.find((c) => c.id === sc.id)!;
    const plane: Plane = {
      blocksWide: mcusX * component.h,
      blocksHigh: mcusY * component.v,
      coefficients: new Int16Array(mcusX * component.h * mcusY * component.v * 64),
    };
    return {
      component,
      plane,
      dc: decoder(jpeg.huffmanTables.get(`dc${sc.td}`), `DC table ${sc.td}`),
      ac: decoder(jpeg.huffmanTables.get(`ac${sc.ta}`), `AC table ${sc.ta}`),
    };
  });
  const reader = new BitReader(jpeg.entropy);
  const predictors = new Int32Array(layout.length);
  for (let mcu = 0; mcu < mcusX * mcusY; mcu++) {
    if (jpeg.restartInterval > 0 && mcu > 0 && mcu % jpeg.restartInterval === 0) {
      reader.restart();
      predictors.fill(0);
    }
    const mx = mcu % mcusX;
    const my = Math.floor(mcu / mcusX);
    for (let index = 0; index < layout.length; index++) {
      const { component, plane, dc, ac } = layout[index]!;
      for (let by = 0; by < component.v; by++) {
        for (let bx = 0; bx < component.h; bx++) {
          const block = ((my * component.v + by) * plane.blocksWide + mx * component.h + bx) * 64;
          const size = dc(reader);
          predictors[index] += extend(reader.read(size), size);
          plane.coefficients[block] = predictors[index]!;
          for (let k = 1; k < 64;) {
            const symbol = ac(reader);
            const run = symbol >> 4;
            const bits = symbol & 0x0f;
            if (bits === 0) {
              if (run !== 15) break; // EOB
              k += 16; // ZRL
              continue;
            }
            k += run;
            if (k > 63) throw new JpegError('JPEG scan runs past the end of a block (corrupt data)');
            plane.coefficients[block + k] = extend(reader.read(bits), bits);
            k++;
          }
        }
      }
    }
  }
  return layout.map((l) => l.plane);
}

function encodePlanes(planes: Plane[], width: number, height: number, target: TargetLayout): Uint8Array {
  const mcusX = Math.ceil(width / (8 * target.y.h));
  const mcusY = Math.ceil(height / (8 * target.y.v));
  const sampling = [target.y, { h: 1, v: 1 }, { h: 1, v: 1 }];
  planes.forEach((plane, i) => {
    if (plane.blocksWide < mcusX * sampling[i]!.h || plane.blocksHigh < mcusY * sampling[i]!.v) {
      throw new JpegError('JPEG scan does not cover the picture in the layout RTP JPEG needs');
    }
  });
  const encoders = planes.map((_, i) => ({
    dc: encoder(i === 0 ? STANDARD_DC_LUMA : STANDARD_DC_CHROMA),
    ac: encoder(i === 0 ? STANDARD_AC_LUMA : STANDARD_AC_CHROMA),
  }));
  const total = planes.reduce((n, p) => n + p.coefficients.length, 0);
  const writer = new BitWriter(total / 4);
  const predictors = new Int32Array(planes.length);
  let restarts = 0;
  for (let mcu = 0; mcu < mcusX * mcusY; mcu++) {
    if (target.restartInterval > 0 && mcu > 0 && mcu % target.restartInterval === 0) {
      writer.restart(restarts++ & 7);
      predictors.fill(0);
    }
    const mx = mcu % mcusX;
    const my = Math.floor(mcu / mcusX);
    for (let index = 0; index < planes.length; index++) {
      const plane = planes[index]!;
      const { h, v } = sampling[index]!;
      const { dc, ac } = encoders[index]!;
      for (let by = 0; by < v; by++) {
        for (let bx = 0; bx < h; bx++) {
          const block = ((my * v + by) * plane.blocksWide + mx * h + bx) * 64;
          const c = plane.coefficients;
          const diff = c[block]! - predictors[index]!;
          predictors[index] = c[block]!;
          const dcSize = magnitude(diff);
          dc(writer, dcSize);
          writer.write(diff < 0 ? diff - 1 : diff, dcSize);
          let run = 0;
          for (let k = 1; k < 64; k++) {
            const value = c[block + k]!;
            if (value === 0) {
              run++;
              continue;
            }
            for (; run > 15; run -= 16) ac(writer, 0xf0);
            const size = magnitude(value);
            ac(writer, (run << 4) | size);
            writer.write(value < 0 ? value - 1 : value, size);
            run = 0;
          }
          if (run > 0) ac(writer, 0x00);
        }
      }
    }
  }
  return writer.finish();
}

/** T.81 F.2.2.1 EXTEND: `size` raw bits → a signed coefficient or DC difference. */
function extend(bits: number, size: number): number {
  return size === 0 ? 0 : bits < 1 << (size - 1) ? bits - (1 << size) + 1 : bits;
}

/** The number of bits a value's magnitude needs (its size category). */
function magnitude(value: number): number {
  let abs = Math.abs(value);
  let size = 0;
  while (abs > 0) {
    size++;
    abs >>= 1;
  }
  return size;
}

type Decode = (reader: BitReader) => number;
type Encode = (writer: BitWriter, symbol: number) => void;

const LOOKAHEAD = 9;

/**
 * Canonical Huffman decoding (T.81 F.2.2.3): codes up to 9 bits come from one table lookup,
 * longer ones from the largest code of each length.
 */
function decoder(table: HuffmanSpec | undefined, name: string): Decode {
  if (!table) throw new JpegError(`JPEG scan uses Huffman ${name}, which the file does not define`);
  const maxCode = new Int32Array(18).fill(-1);
  const valPtr = new Int32Array(17);
  const minCode = new Int32Array(17);
  // Entry: (code length << 8) | symbol, 0 when the code is longer than the lookahead.
  const fast = new Uint16Array(1 << LOOKAHEAD);
  let code = 0;
  let k = 0;
  for (let length = 1; length <= 16; length++) {
    const count = table.counts[length - 1]!;
    if (count > 0) {
      valPtr[length] = k;
      minCode[length] = code;
      for (let n = 0; n < count; n++) {
        if (length <= LOOKAHEAD) {
          const first = (code + n) << (LOOKAHEAD - length);
          fast.fill((length << 8) | table.symbols[k + n]!, first, first + (1 << (LOOKAHEAD - length)));
        }
      }
      code += count;
      k += count;
      maxCode[length] = code - 1;
    }
    code <<= 1;
  }
  return (reader) => {
    const hit = fast[reader.peek(LOOKAHEAD)]!;
    if (hit !== 0) {
      reader.skip(hit >> 8);
      return hit & 0xff;
    }
    let value = reader.read(LOOKAHEAD);
    for (let length = LOOKAHEAD + 1; length <= 16; length++) {
      value = (value << 1) | reader.read(1);
      if (value <= maxCode[length]!) return table.symbols[valPtr[length]! + value - minCode[length]!]!;
    }
    throw new JpegError('JPEG scan holds a code its Huffman table does not define (corrupt data)');
  };
}

function encoder(table: HuffmanSpec): Encode {
  const codes = new Int32Array(256).fill(-1);
  const sizes = new Uint8Array(256);
  let code = 0;
  let k = 0;
  for (let length = 1; length <= 16; length++) {
    for (let n = 0; n < table.counts[length - 1]!; n++) {
      const symbol = table.symbols[k++]!;
      codes[symbol] = code++;
      sizes[symbol] = length;
    }
    code <<= 1;
  }
  return (writer, symbol) => {
    if (codes[symbol]! < 0) throw new JpegError(`JPEG scan holds a coefficient too large for baseline JPEG (symbol ${symbol})`);
    writer.write(codes[symbol]!, sizes[symbol]!);
  };
}

/** Reads entropy-coded bits: FF 00 is a data byte FF; a marker yields zero bits (T.81 F.2.2.5). */
class BitReader {
  private position = 0;
  /** Up to 32 bits not yet consumed, the next one the highest of the `count` low bits. */
  private buffer = 0;
  private count = 0;

  constructor(private readonly data: Uint8Array) {}

  peek(bits: number): number {
    if (this.count < bits) this.fill();
    return (this.buffer >>> (this.count - bits)) & ((1 << bits) - 1);
  }

  skip(bits: number): void {
    this.count -= bits;
  }

  read(bits: number): number {
    if (bits === 0) return 0;
    const value = this.peek(bits);
    this.count -= bits;
    return value;
  }

  /** At a restart interval: drop the padding bits and step over the RSTn marker. */
  restart(): void {
    this.count = 0;
    this.buffer = 0;
    while (this.data[this.position] === 0xff && this.data[this.position + 1] === 0xff) this.position++;
    const marker = this.data[this.position + 1] ?? 0;
    if (this.data[this.position] !== 0xff || marker < 0xd0 || marker > 0xd7)
      throw new JpegError('JPEG scan lacks a restart marker where its restart interval needs one');
    this.position += 2;
  }

  private fill(): void {
    while (this.count <= 24) {
      let byte = this.data[this.position];
      if (byte === undefined) {
        byte = 0;
      } else if (byte === 0xff) {
        if (this.data[this.position + 1] === 0x00) this.position += 2;
        else byte = 0; // a marker: stay in front of it
      } else {
        this.position++;
      }
      this.buffer = ((this.buffer << 8) | byte) >>> 0;
      this.count += 8;
    }
  }
}

/** Writes entropy-coded bits, stuffing a 00 after every FF. */
class BitWriter {
  private out: Uint8Array;
  private length = 0;
  private buffer = 0;
  private count = 0;

  constructor(capacity: number) {
    this.out = new Uint8Array(Math.max(1024, Math.ceil(capacity)));
  }

  /** Writes the low `bits` bits of value (at most 16). */
  write(value: number, bits: number): void {
    this.buffer = ((this.buffer << bits) | (value & ((1 << bits) - 1))) >>> 0;
    this.count += bits;
    while (this.count >= 8) {
      this.count -= 8;
      const byte = (this.buffer >>> this.count) & 0xff;
      this.push(byte);
      if (byte === 0xff) this.push(0x00);
    }
    this.buffer &= (1 << this.count) - 1;
  }

  restart(index: number): void {
    this.pad();
    this.push(0xff);
    this.push(0xd0 + index);
  }

  finish(): Uint8Array {
    this.pad();
    return this.out.subarray(0, this.length);
  }

  /** Fills the last byte with 1 bits (T.81 F.1.2.3). */
  private pad(): void {
    if (this.count > 0) this.write(0xff, 8 - this.count);
  }

  private push(byte: number): void {
    if (this.length === this.out.length) {
      const bigger = new Uint8Array(this.out.length * 2);
      bigger.set(this.out);
      this.out = bigger;
    }
    this.out[this.length++] = byte;
  }
}
