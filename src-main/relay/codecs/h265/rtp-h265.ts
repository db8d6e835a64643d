import type { MediaFrame } from '../../core/media';
import type { RtpPacket } from '../../core/rtp-packet';
import { toAvcc } from '../h264/nal';

export const h265NalType = (unit: Uint8Array): number => (unit[0]! >> 1) & 0x3f;
const isIrap = (type: number) => type >= 16 && type <= 21;

/**
 * RTP → H.265 access units (RFC 7798: single NAL, AP type 48, FU type 49; no DONL). Same rules
 * as H.264: a unit ends at the marker or a new timestamp; a broken fragment drops its unit.
 */
export function createH265Depacketizer() {
  const stats = { packets: 0, frames: 0, lost: 0, errors: 0 };
  let units: Uint8Array[] = [];
  let fragment: number[] | undefined;
  let broken = false;
  let timestamp: number | undefined;
  let lastSeq: number | undefined;

  const flush = (): MediaFrame[] => {
    if (units.length === 0 || timestamp === undefined) return [];
    const frame: MediaFrame = { codec: 'H265', timestamp, keyframe: units.some((u) => isIrap(h265NalType(u))), data: toAvcc(units) };
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
        if (fragment) broken = true;
      }
      lastSeq = packet.sequenceNumber;
      if (timestamp !== undefined && packet.timestamp !== timestamp) {
        fragment = undefined;
        out.push(...flush());
      }
      timestamp = packet.timestamp;
      const p = packet.payload;
      if (p.length < 3) {
        stats.errors++;
        return out;
      }
      const type = h265NalType(p);
      if (type < 48) {
        units.push(p);
      } else if (type === 48) {
        let offset = 2;
        while (offset + 2 <= p.length) {
          const size = (p[offset]! << 8) | p[offset + 1]!;
          if (size === 0 || offset + 2 + size > p.length) {
            stats.errors++;
            break;
          }
          units.push(p.subarray(offset + 2, offset + 2 + size));
          offset += 2 + size;
        }
      } else if (type === 49) {
        const fu = p[2]!;
        if (fu & 0x80) {
          // The NAL header: the FU's header with its type replaced by the fragment's type.
          fragment = [(p[0]! & 0x81) | ((fu & 0x3f) << 1), p[1]!, ...p.subarray(3)];
          broken = false;
        } else if (fragment) {
          for (const byte of p.subarray(3)) fragment.push(byte);
        }
        if (fu & 0x40 && fragment) {
          if (!broken) units.push(Uint8Array.from(fragment));
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

/** An H.265 access unit's NAL units → RTP payloads (FU for the large ones), marker on the last. */
export function packetizeH265(units: readonly Uint8Array[], mtu = 1200): Array<{ payload: Uint8Array; marker: boolean }> {
  const out: Array<{ payload: Uint8Array; marker: boolean }> = [];
  for (const unit of units) {
    if (unit.length <= mtu) {
      out.push({ payload: unit, marker: false });
      continue;
    }
    const type = h265NalType(unit);
    const body = unit.subarray(2);
    for (let offset = 0; offset < body.length; offset += mtu - 3) {
      const piece = body.subarray(offset, offset + mtu - 3);
      const payload = new Uint8Array(3 + piece.length);
      payload[0] = (unit[0]! & 0x81) | (49 << 1);
      payload[1] = unit[1]!;
      payload[2] = (offset === 0 ? 0x80 : 0) | (offset + mtu - 3 >= body.length ? 0x40 : 0) | type;
      payload.set(piece, 3);
      out.push({ payload, marker: false });
    }
  }
  if (out.length > 0) out[out.length - 1]!.marker = true;
  return out;
}
