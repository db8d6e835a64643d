import { concatBytes } from '../../codecs/bytes';
export const TS_PACKET_SIZE = 188;
const HEADER_SIZE = 4;
const BODY_SIZE = TS_PACKET_SIZE - HEADER_SIZE;

/** 2^33: PTS, DTS and the PCR base are 33-bit counts of a 90 kHz clock that wrap. */
export const WRAP_33 = 2 ** 33;

/** What goes into the first packet's adaptation field of a PES. */
export interface FirstPacketFlags {
  /** The PCR base (90 kHz) this packet carries; only on the PCR PID. */
  pcr?: number;
  /** Marks a keyframe (or an audio frame): a decoder may start here. */
  randomAccess?: boolean;
}

/** One PID's 4-bit continuity counter: consecutive packets of a PID count up, so losses show. */
export interface ContinuityCounter {
  value: number;
}

/**
 * Splits a PES (or a PSI section with its pointer field) into 188-byte TS packets of `pid`.
 * The first packet has payload_unit_start set and, when asked, an adaptation field with PCR and
 * random_access_indicator; the last is filled with adaptation-field stuffing, as PES payloads
 * may not be padded with bytes of their own.
 */
export function packetize(pid: number, counter: ContinuityCounter, payload: Uint8Array, flags: FirstPacketFlags = {}): Uint8Array {
  const packets: Uint8Array[] = [];
  let offset = 0;
  let first = true;
  while (first || offset < payload.length) {
    const packet = new Uint8Array(TS_PACKET_SIZE);
    const adaptation = first ? firstAdaptation(flags) : [];
    const room = BODY_SIZE - adaptation.length;
    const size = Math.min(room, payload.length - offset);
    const stuffing = room - size;
    const field = withStuffing(adaptation, stuffing);
    packet[0] = 0x47;
    packet[1] = (first ? 0x40 : 0) | ((pid >> 8) & 0x1f);
    packet[2] = pid & 0xff;
    packet[3] = (field.length > 0 ? 0x30 : 0x10) | counter.value;
    counter.value = (counter.value + 1) & 0x0f;
    packet.set(field, HEADER_SIZE);
    packet.set(payload.subarray(offset, offset + size), HEADER_SIZE + field.length);
    packets.push(packet);
    offset += size;
    first = false;
  }
  return concatBytes(packets);
}

/** The adaptation field's length byte, flags and PCR, or nothing when no flag is asked for. */
function firstAdaptation(flags: FirstPacketFlags): number[] {
  if (flags.pcr === undefined && !flags.randomAccess) return [];
  const bytes = [0, (flags.randomAccess ? 0x40 : 0) | (flags.pcr !== undefined ? 0x10 : 0)];
  if (flags.pcr !== undefined) bytes.push(...pcrBytes(flags.pcr));
  bytes[0] = bytes.length - 1;
  return bytes;
}

/** Grows (or creates) the adaptation field by `stuffing` bytes of 0xFF. */
function withStuffing(field: number[], stuffing: number): number[] {
  if (stuffing === 0) return field;
  if (field.length === 0) {
    // One spare byte is an empty adaptation field (just its length, 0); more need the flags byte.
    if (stuffing === 1) return [0];
    return [stuffing - 1, 0, ...new Array<number>(stuffing - 2).fill(0xff)];
  }
  const grown = [...field, ...new Array<number>(stuffing).fill(0xff)];
  grown[0] = grown.length - 1;
  return grown;
}

/** program_clock_reference: a 33-bit 90 kHz base, 6 reserved bits, a 9-bit 27 MHz extension (0). */
function pcrBytes(pcr: number): number[] {
  const base = ((pcr % WRAP_33) + WRAP_33) % WRAP_33;
  const high = Math.floor(base / 2); // the top 32 of the 33 bits
  return [(high >>> 24) & 0xff, (high >>> 16) & 0xff, (high >>> 8) & 0xff, high & 0xff, ((base & 1) << 7) | 0x7e, 0];
}

export { concatBytes as concat };
