import type { MediaFrame } from '../../core/media';
import type { RtpPacket } from '../../core/rtp-packet';
import { h264NalType, toAvcc } from './nal';

export interface DepacketizerStats {
  packets: number;
  frames: number;
  lost: number;
  errors: number;
}

/**
 * RTP → H.264 access units (RFC 6184: single NAL, STAP-A, FU-A). An access unit ends at the
 * marker bit or when the timestamp changes; a unit with a lost packet inside a fragment is
 * dropped and counted, never passed on broken. `parameterSets` (SPS, PPS from the SDP) are put
 * before a keyframe that arrives without its own.
 */
export function createH264Depacketizer(parameterSets: Uint8Array[] = []) {
  const stats: DepacketizerStats = { packets: 0, frames: 0, lost: 0, errors: 0 };
  let units: Uint8Array[] = [];
  let fragment: number[] | undefined;
  let fragmentBroken = false;
  let timestamp: number | undefined;
  let lastSeq: number | undefined;
  let known = [...parameterSets];

  const flush = (): MediaFrame[] => {
    if (units.length === 0 || timestamp === undefined) return [];
    const types = units.map(h264NalType);
    const keyframe = types.includes(5);
    if (types.includes(7)) known = units.filter((u) => h264NalType(u) === 7 || h264NalType(u) === 8);
    const withSets = keyframe && !types.includes(7) ? [...known, ...units] : units;
    const frame: MediaFrame = { codec: 'H264', timestamp, keyframe, data: toAvcc(withSets) };
    units = [];
    stats.frames++;
    return [frame];
  };

  return {
    stats,
    push(packet: RtpPacket): MediaFrame[] {
      stats.packets++;
      const out: MediaFrame[] = [];
      if (lastSeq !== undefined && ((lastSeq + 1) & 0xffff) !== packet.sequenceNumber) {
        stats.lost += (packet.sequenceNumber - lastSeq - 1 + 0x10000) & 0xffff;
        if (fragment) fragmentBroken = true;
      }
      lastSeq = packet.sequenceNumber;
      if (timestamp !== undefined && packet.timestamp !== timestamp) {
        fragment = undefined;
        out.push(...flush());
      }
      timestamp = packet.timestamp;
      const p = packet.payload;
      if (p.length < 1) {
        stats.errors++;
        return out;
      }
      const type = p[0]! & 0x1f;
      if (type >= 1 && type <= 23) {
        units.push(p);
      } else if (type === 24) {
        let offset = 1;
        while (offset + 2 <= p.length) {
          const size = (p[offset]! << 8) | p[offset + 1]!;
          if (size === 0 || offset + 2 + size > p.length) {
            stats.errors++;
            break;
          }
          units.push(p.subarray(offset + 2, offset + 2 + size));
          offset += 2 + size;
        }
      } else if (type === 28) {
        if (p.length < 3) {
          stats.errors++;
          return out;
        }
        const start = (p[1]! & 0x80) !== 0;
        const end = (p[1]! & 0x40) !== 0;
        if (start) {
          fragment = [(p[0]! & 0xe0) | (p[1]! & 0x1f), ...p.subarray(2)];
          fragmentBroken = false;
        } else if (fragment) {
          for (const byte of p.subarray(2)) fragment.push(byte);
        }
        if (end && fragment) {
          if (!fragmentBroken) units.push(Uint8Array.from(fragment));
          fragment = undefined;
        }
      } else {
        stats.errors++;
      }
      if (packet.marker) out.push(...flush());
      return out;
    },
  };
}

/**
 * An H.264 access unit (AVCC) → RTP payloads of at most `mtu` bytes: small NAL units whole,
 * large ones as FU-A fragments. The last payload carries the marker bit.
 */
export function packetizeH264(units: readonly Uint8Array[], mtu = 1200): Array<{ payload: Uint8Array; marker: boolean }> {
  const out: Array<{ payload: Uint8Array; marker: boolean }> = [];
  for (const unit of units) {
    if (unit.length <= mtu) {
      out.push({ payload: unit, marker: false });
      continue;
    }
    const header = unit[0]!;
    const body = unit.subarray(1);
    for (let offset = 0; offset < body.length; offset += mtu - 2) {
      const piece = body.subarray(offset, offset + mtu - 2);
      const start = offset === 0;
      const end = offset + mtu - 2 >= body.length;
      const payload = new Uint8Array(2 + piece.length);
      payload[0] = (header & 0xe0) | 28;
      payload[1] = (start ? 0x80 : 0) | (end ? 0x40 : 0) | (header & 0x1f);
      payload.set(piece, 2);
      out.push({ payload, marker: false });
    }
  }
  if (out.length > 0) out[out.length - 1]!.marker = true;
  return out;
}
