import { crc32Mpeg } from './crc32-mpeg';

export const PAT_PID = 0x0000;
export const PMT_PID = 0x1000;
const PROGRAM_NUMBER = 1;

/** stream_type values of the PMT for the codecs this muxer writes. */
export const STREAM_TYPES = { H264: 0x1b, H265: 0x24, AAC_ADTS: 0x0f } as const;

export interface PmtStream {
  streamType: number;
  pid: number;
}

/** The Program Association Table: one program, whose PMT is on PMT_PID. With its pointer field. */
export function patSection(): Uint8Array {
  const body = [PROGRAM_NUMBER >> 8, PROGRAM_NUMBER & 0xff, 0xe0 | (PMT_PID >> 8), PMT_PID & 0xff];
  return section(0x00, 0x0001, body);
}

/** The Program Map Table: each elementary stream's type and PID, and which PID carries the PCR. */
export function pmtSection(pcrPid: number, streams: readonly PmtStream[]): Uint8Array {
  const body = [0xe0 | (pcrPid >> 8), pcrPid & 0xff, 0xf0, 0x00]; // PCR_PID, program_info_length 0
  for (const s of streams) body.push(s.streamType, 0xe0 | (s.pid >> 8), s.pid & 0xff, 0xf0, 0x00); // ES_info_length 0
  return section(0x02, PROGRAM_NUMBER, body);
}

/** A long-form PSI section (version 0, current, section 0 of 0) behind a zero pointer field, with its CRC. */
function section(tableId: number, idExtension: number, body: number[]): Uint8Array {
  const length = 5 + body.length + 4; // from after section_length to the end of the CRC
  const bytes = [tableId, 0xb0 | (length >> 8), length & 0xff, idExtension >> 8, idExtension & 0xff, 0xc1, 0x00, 0x00, ...body];
  const crc = crc32Mpeg(Uint8Array.from(bytes));
  return Uint8Array.from([0x00, ...bytes, crc >>> 24, (crc >>> 16) & 0xff, (crc >>> 8) & 0xff, crc & 0xff]);
}
