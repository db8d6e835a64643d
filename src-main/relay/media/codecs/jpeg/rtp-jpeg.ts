import { concatBytes } from '../bytes';
import type { MediaFrame } from '@main/relay/core/media';
import type { RtpPacket } from '@main/relay/core/rtp-packet';
import { transcodeScan } from './entropy-transcode';
import { jfifHeaders } from './jfif-headers';
import { JpegError, parseJpeg, type ParsedJpeg, type QuantTable } from './jpeg-parse';
import { quantTablesForQ, sameHuffman, STANDARD_AC_CHROMA, STANDARD_AC_LUMA, STANDARD_DC_CHROMA, STANDARD_DC_LUMA } from './jpeg-tables';

/** RFC 2435 main header: type-specific, fragment offset (24 bits), type, Q, width/8, height/8. */
const MAIN_HEADER = 8;
const RESTART_HEADER = 4;
const QUANT_HEADER = 4;
/** The largest width or height the 8-bit width/8 and height/8 fields can say. */
const MAX_DIMENSION = 2040;

/**
 * A baseline JPEG → RTP JPEG payloads (RFC 2435), marker on the last. Every frame carries its own
 * quantization tables (Q=255) in the first packet; type 0 (4:2:2) or 1 (4:2:0) follows the
 * sampling, plus 64 when the JPEG uses restart markers. A scan coded with the encoder's own
 * Huffman tables, or in another block order (ffmpeg's 4:2:2 is Y 2x2 with chroma 1x2), is
 * re-coded losslessly into the standard tables and RTP JPEG's order.
 * Throws a JpegError naming what RFC 2435 cannot carry: progressive or 12-bit JPEG, grayscale,
 * 4:4:4 and other samplings, pictures over 2040 pixels.
 */
export function packetizeJpeg(jpeg: Uint8Array, mtu = 1200): Array<{ payload: Uint8Array; marker: boolean }> {
  const parsed = parseJpeg(jpeg);
  const { type, lumaTable, chromaTable, nativeLayout } = checkCarriable(parsed);
  // The scan goes as it is when it already has RTP JPEG's block order and Huffman tables;
  // otherwise it is re-coded (losslessly), and restart markers are dropped when blocks move.
  const asIs = nativeLayout && usesStandardHuffman(parsed);
  const restartInterval = nativeLayout ? parsed.restartInterval : 0;
  const entropy = asIs ? parsed.entropy : transcodeScan(parsed, { y: { h: 2, v: type === 0 ? 1 : 2 }, restartInterval });
  if (entropy.length > 0xffffff) throw new JpegError('RTP JPEG (RFC 2435) cannot carry this JPEG: its scan is over 16 MiB');

  const restart = restartInterval > 0;
  const main = new Uint8Array(MAIN_HEADER);
  main[4] = type | (restart ? 64 : 0);
  main[5] = 255; // tables in-band, and they may change from frame to frame
  main[6] = Math.ceil(parsed.width / 8);
  main[7] = Math.ceil(parsed.height / 8);
  // F=1, L=1, count 0x3FFF: restart intervals may span packets; the receiver reassembles the frame.
  const restartHeader = restart ? Uint8Array.from([restartInterval >> 8, restartInterval & 0xff, 0xff, 0xff]) : new Uint8Array(0);
  const tables = concatBytes([lumaTable, chromaTable]);
  const quantHeader = concatBytes([
    Uint8Array.from([
      0,
      (lumaTable.length === 128 ? 1 : 0) | (chromaTable.length === 128 ? 2 : 0),
      tables.length >> 8,
      tables.length & 0xff,
    ]),
    tables,
  ]);

  const out: Array<{ payload: Uint8Array; marker: boolean }> = [];
  let offset = 0;
  do {
    const headers = offset === 0 ? [main, restartHeader, quantHeader] : [main, restartHeader];
    const headerSize = headers.reduce((n, h) => n + h.length, 0);
    if (mtu <= headerSize) throw new JpegError(`MTU ${mtu} is too small for the RTP JPEG headers (${headerSize} bytes)`);
    const piece = entropy.subarray(offset, offset + mtu - headerSize);
    main[1] = (offset >> 16) & 0xff;
    main[2] = (offset >> 8) & 0xff;
    main[3] = offset & 0xff;
    out.push({ payload: concatBytes([...headers, piece]), marker: false });
    offset += piece.length;
  } while (offset < entropy.length);
  out[out.length - 1]!.marker = true;
  return out;
}

function checkCarriable(jpeg: ParsedJpeg): { type: 0 | 1; lumaTable: Uint8Array; chromaTable: Uint8Array; nativeLayout: boolean } {
  const refuse = (what: string) => new JpegError(`RTP JPEG (RFC 2435) cannot carry this JPEG: ${what}`);
  if (jpeg.sofType !== 0 && jpeg.sofType !== 1)
    throw refuse(`it is ${SOF_NAMES[jpeg.sofType] ?? `SOF${jpeg.sofType}`}, only baseline sequential JPEG can be sent`);
  if (jpeg.precision !== 8) throw refuse(`it has ${jpeg.precision}-bit samples, only 8-bit can be sent`);
  if (jpeg.width === 0 || jpeg.height === 0) throw refuse('its size is not in its frame header');
  if (jpeg.width > MAX_DIMENSION || jpeg.height > MAX_DIMENSION)
    throw refuse(`it is ${jpeg.width}x${jpeg.height}, the largest is ${MAX_DIMENSION}x${MAX_DIMENSION}`);
  const [y, cb, cr] = jpeg.components;
  if (jpeg.components.length !== 3 || !y || !cb || !cr)
    throw refuse(`it has ${jpeg.components.length} color component(s), only YCbCr (3) can be sent`);
  const factors = `Y ${y.h}x${y.v}, Cb ${cb.h}x${cb.v}, Cr ${cr.h}x${cr.v}`;
  const sameChroma = cb.h === cr.h && cb.v === cr.v;
  const hRatio = y.h / cb.h;
  const vRatio = y.v / cb.v;
  const type = sameChroma && hRatio === 2 && vRatio === 1 ? 0 : sameChroma && hRatio === 2 && vRatio === 2 ? 1 : undefined;
  if (type === undefined) {
    const name = sameChroma && hRatio === 1 && vRatio === 1 ? '4:4:4' : 'not 4:2:2 or 4:2:0';
    throw refuse(`its sampling is ${name} (${factors}), only 4:2:2 and 4:2:0 can be sent`);
  }
  if (cb.tq !== cr.tq) throw refuse('Cb and Cr use different quantization tables, RTP JPEG has one chroma table');
  const scan = jpeg.scan;
  const scanIds = scan.components.map((c) => c.id).join(',');
  if (scanIds !== [y.id, cb.id, cr.id].join(',') || scan.ss !== 0 || scan.se !== 63 || scan.ah !== 0 || scan.al !== 0) {
    throw refuse('its first scan does not hold the whole picture (one interleaved Y, Cb, Cr scan is needed)');
  }
  const table = (id: number): Uint8Array => {
    const found = jpeg.quantTables.get(id);
    if (!found) throw new JpegError(`JPEG uses quantization table ${id}, which it does not define`);
    return quantBytes(found);
  };
  const nativeLayout = cb.h === 1 && cb.v === 1 && y.h === 2 && y.v === (type === 0 ? 1 : 2);
  return { type, lumaTable: table(y.tq), chromaTable: table(cb.tq), nativeLayout };
}

const SOF_NAMES: Record<number, string> = {
  2: 'progressive JPEG',
  3: 'lossless JPEG',
  9: 'arithmetic-coded JPEG',
  10: 'progressive arithmetic-coded JPEG',
};

function quantBytes(table: QuantTable): Uint8Array {
  if (table.precision === 0) return Uint8Array.from(table.values);
  const out = new Uint8Array(128);
  table.values.forEach((v, i) => {
    out[2 * i] = v >> 8;
    out[2 * i + 1] = v & 0xff;
  });
  return out;
}

/** True when the scan's tables are the standard ones (or absent, as in some MJPEG cameras' frames). */
function usesStandardHuffman(jpeg: ParsedJpeg): boolean {
  const [y, cb, cr] = jpeg.scan.components;
  if (cb!.td !== cr!.td || cb!.ta !== cr!.ta) return false;
  const c = cb;
  const table = (key: string) => jpeg.huffmanTables.get(key);
  if (jpeg.huffmanTables.size === 0) return true;
  return (
    sameHuffman(table(`dc${y!.td}`), STANDARD_DC_LUMA) &&
    sameHuffman(table(`ac${y!.ta}`), STANDARD_AC_LUMA) &&
    sameHuffman(table(`dc${c!.td}`), STANDARD_DC_CHROMA) &&
    sameHuffman(table(`ac${c!.ta}`), STANDARD_AC_CHROMA)
  );
}

interface JpegDepacketizerStats {
  packets: number;
  frames: number;
  /** Packets missing from the sequence. */
  lost: number;
  /** Frames dropped: a missing fragment, an unknown type, tables neither in-band nor cached. */
  errors: number;
}

interface FrameInProgress {
  timestamp: number;
  headers: Uint8Array;
  chunks: Uint8Array[];
  expectedOffset: number;
  broken: boolean;
}

/**
 * RTP JPEG (RFC 2435) → whole JFIF pictures: the receiver rebuilds what the sender left out
 * (quantization tables from Q or from the in-band table header, the standard Huffman tables,
 * SOF with the size, DRI for types 64-127) in front of the reassembled scan. A frame that lost
 * a fragment is dropped and counted, never passed on broken.
 */
export function createJpegDepacketizer() {
  const stats: JpegDepacketizerStats = { packets: 0, frames: 0, lost: 0, errors: 0 };
  /** In-band tables of Q 128-254 may be sent once and then left out (RFC 2435 3.1.8). */
  const tablesByQ = new Map<number, { luma: Uint8Array; chroma: Uint8Array }>();
  let frame: FrameInProgress | undefined;
  let lastSeq: number | undefined;

  const drop = () => {
    if (frame) stats.errors++;
    frame = undefined;
  };

  const start = (packet: RtpPacket): FrameInProgress | undefined => {
    const p = packet.payload;
    const typeField = p[4]!;
    const q = p[5]!;
    const type = typeField & 0x3f;
    if ((typeField & 0x80) !== 0 || type > 1) return undefined;
    let at = MAIN_HEADER;
    let restartInterval = 0;
    if (typeField & 0x40) {
      if (p.length < at + RESTART_HEADER) return undefined;
      restartInterval = (p[at]! << 8) | p[at + 1]!;
      at += RESTART_HEADER;
    }
    let tables: { luma: Uint8Array; chroma: Uint8Array } | undefined;
    if (q >= 128) {
      if (p.length < at + QUANT_HEADER) return undefined;
      const precision = p[at + 1]!;
      const length = (p[at + 2]! << 8) | p[at + 3]!;
      at += QUANT_HEADER;
      if (length > 0) {
        if (p.length < at + length) return undefined;
        tables = splitTables(p.subarray(at, at + length), precision);
        at += length;
        if (tables && q < 255) tablesByQ.set(q, tables);
      } else {
        tables = tablesByQ.get(q);
      }
    } else if (q > 0 && q < 100) {
      tables = tablesByQ.get(q) ?? quantTablesForQ(q);
      tablesByQ.set(q, tables);
    }
    const width = p[6]! * 8;
    const height = p[7]! * 8;
    if (!tables || width === 0 || height === 0) return undefined;
    const headers = jfifHeaders({
      type: type as 0 | 1,
      width,
      height,
      lumaTable: tables.luma,
      chromaTable: tables.chroma,
      restartInterval,
    });
    return { timestamp: packet.timestamp, headers, chunks: [p.subarray(at)], expectedOffset: p.length - at, broken: false };
  };

  return {
    stats,
    push(packet: RtpPacket): MediaFrame[] {
      stats.packets++;
      const p = packet.payload;
      if (lastSeq !== undefined && ((lastSeq + 1) & 0xffff) !== packet.sequenceNumber) {
        stats.lost += (packet.sequenceNumber - lastSeq - 1 + 0x10000) & 0xffff;
        if (frame) frame.broken = true;
      }
      lastSeq = packet.sequenceNumber;
      if (p.length < MAIN_HEADER) {
        stats.errors++;
        return [];
      }
      if (frame && frame.timestamp !== packet.timestamp) drop(); // its last packet never came
      const offset = (p[1]! << 16) | (p[2]! << 8) | p[3]!;
      if (offset === 0) {
        drop();
        frame = start(packet);
        if (!frame) {
          stats.errors++;
          return [];
        }
      } else {
        if (!frame) return []; // the start of this frame was lost (or came before we joined)
        const at = MAIN_HEADER + ((p[4]! & 0x40) !== 0 ? RESTART_HEADER : 0);
        if (offset !== frame.expectedOffset) frame.broken = true;
        frame.chunks.push(p.subarray(at));
        frame.expectedOffset += p.length - at;
      }
      if (!packet.marker) return [];
      const done = frame;
      frame = undefined;
      if (done.broken) {
        stats.errors++;
        return [];
      }
      const scan = done.chunks;
      const last = scan[scan.length - 1]!;
      const endsWithEoi = last.length >= 2 && last[last.length - 2] === 0xff && last[last.length - 1] === 0xd9;
      const data = concatBytes([done.headers, ...scan, endsWithEoi ? new Uint8Array(0) : Uint8Array.from([0xff, 0xd9])]);
      stats.frames++;
      return [{ codec: 'JPEG', timestamp: done.timestamp, keyframe: true, data }];
    },
  };
}

/** The in-band table header's data: luma then chroma, each 64 bytes, or 128 when its precision bit is set. */
function splitTables(data: Uint8Array, precision: number): { luma: Uint8Array; chroma: Uint8Array } | undefined {
  const lumaSize = precision & 1 ? 128 : 64;
  const chromaSize = precision & 2 ? 128 : 64;
  if (data.length === lumaSize) return { luma: data.slice(), chroma: data.slice() }; // one table for all components
  if (data.length < lumaSize + chromaSize) return undefined;
  return { luma: data.slice(0, lumaSize), chroma: data.slice(lumaSize, lumaSize + chromaSize) };
}
