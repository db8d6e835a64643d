import { createAccessUnitDepacketizer, readAggregated } from '../access-unit-depacketizer';

export const h265NalType = (unit: Uint8Array): number => (unit[0]! >> 1) & 0x3f;
const isIrap = (type: number) => type >= 16 && type <= 21;

/** RTP → H.265 access units (RFC 7798: single NAL, AP type 48, FU type 49; no DONL). */
export function createH265Depacketizer() {
  return createAccessUnitDepacketizer({
    name: 'H265',
    read(p, sink) {
      if (p.length < 3) return sink.error();
      const type = h265NalType(p);
      if (type < 48) return sink.unit(p);
      if (type === 48) return readAggregated(p, 2, sink);
      if (type !== 49) return sink.error();
      const fu = p[2]!;
      // The NAL header: the FU's header with its type replaced by the fragment's type.
      if (fu & 0x80) sink.fragmentStart([(p[0]! & 0x81) | ((fu & 0x3f) << 1), p[1]!], p.subarray(3));
      else sink.fragmentPart(p.subarray(3));
      if (fu & 0x40) sink.fragmentEnd();
    },
    finish: (units) => ({ keyframe: units.some((u) => isIrap(h265NalType(u))) }),
  });
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
