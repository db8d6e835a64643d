import { DemuxError } from '../demuxer';

export const TS_PACKET_SIZE = 188;
export const SYNC_BYTE = 0x47;

export interface TsPacket {
  pid: number;
  payloadStart: boolean;
  continuity: number;
  payload: Uint8Array;
}

/** One 188-byte transport packet → PID, flags and the payload after any adaptation field. */
export function parseTsPacket(packet: Uint8Array, offset: number): TsPacket {
  if (packet[0] !== SYNC_BYTE)
    throw new DemuxError(`MPEG-TS: lost sync at byte ${offset} (0x${(packet[0] ?? 0).toString(16)} instead of 0x47)`);
  const pid = ((packet[1]! & 0x1f) << 8) | packet[2]!;
  const payloadStart = (packet[1]! & 0x40) !== 0;
  const control = (packet[3]! >> 4) & 0x03;
  let start = 4;
  if (control & 0x02) start += 1 + packet[4]!;
  if (!(control & 0x01) || start >= TS_PACKET_SIZE) return { pid, payloadStart, continuity: packet[3]! & 0x0f, payload: new Uint8Array(0) };
  return { pid, payloadStart, continuity: packet[3]! & 0x0f, payload: packet.subarray(start) };
}

export interface PmtStream {
  pid: number;
  streamType: number;
}

/** A PSI section (PAT or PMT) from a payload that starts one: skips the pointer field. */
function section(payload: Uint8Array, what: string): Uint8Array {
  const pointer = payload[0] ?? 0;
  const body = payload.subarray(1 + pointer);
  if (body.length < 8) throw new DemuxError(`MPEG-TS: ${what} section truncated`);
  const length = ((body[1]! & 0x0f) << 8) | body[2]!;
  if (3 + length > body.length)
    throw new DemuxError(`MPEG-TS: ${what} section longer than its packet (sections over several packets are not supported)`);
  return body.subarray(0, 3 + length - 4); // without the CRC
}

/** PAT → the PID of the first program's PMT. */
export function parsePat(payload: Uint8Array): number | undefined {
  const pat = section(payload, 'PAT');
  for (let at = 8; at + 4 <= pat.length; at += 4) {
    const program = (pat[at]! << 8) | pat[at + 1]!;
    if (program !== 0) return ((pat[at + 2]! & 0x1f) << 8) | pat[at + 3]!;
  }
  return undefined;
}

/** PMT → its elementary streams (PID and stream type). */
export function parsePmt(payload: Uint8Array): PmtStream[] {
  const pmt = section(payload, 'PMT');
  const infoLength = ((pmt[10]! & 0x0f) << 8) | pmt[11]!;
  const streams: PmtStream[] = [];
  for (let at = 12 + infoLength; at + 5 <= pmt.length;) {
    const streamType = pmt[at]!;
    const pid = ((pmt[at + 1]! & 0x1f) << 8) | pmt[at + 2]!;
    const esInfo = ((pmt[at + 3]! & 0x0f) << 8) | pmt[at + 4]!;
    streams.push({ pid, streamType });
    at += 5 + esInfo;
  }
  return streams;
}

/** PES header → presentation time (90 kHz, 33 bits) and where the elementary data starts. */
export function parsePesHeader(pes: Uint8Array): { pts?: number; dataStart: number } {
  if (pes.length < 9 || pes[0] !== 0 || pes[1] !== 0 || pes[2] !== 1) throw new DemuxError('MPEG-TS: PES packet without a start code');
  const flags = pes[7]!;
  const headerLength = pes[8]!;
  const dataStart = 9 + headerLength;
  if (dataStart > pes.length) throw new DemuxError('MPEG-TS: PES header longer than its packet');
  if (!(flags & 0x80)) return { dataStart };
  const p = pes.subarray(9, 14);
  const pts = (p[0]! & 0x0e) * 0x20000000 + ((p[1]! << 7) | (p[2]! >> 1)) * 0x8000 + ((p[3]! << 7) | (p[4]! >> 1));
  return { pts, dataStart };
}
