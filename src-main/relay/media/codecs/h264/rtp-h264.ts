import { createAccessUnitDepacketizer, readAggregated } from '../access-unit-depacketizer';
import { h264NalType } from './nal';

/**
 * RTP → H.264 access units (RFC 6184: single NAL, STAP-A, FU-A). `parameterSets` (SPS, PPS from
 * the SDP) are put before a keyframe that arrives without its own; in-band ones replace them.
 */
export function createH264Depacketizer(parameterSets: Uint8Array[] = []) {
  let known = [...parameterSets];
  return createAccessUnitDepacketizer({
    name: 'H264',
    read(p, sink) {
      if (p.length < 1) return sink.error();
      const type = p[0]! & 0x1f;
      if (type >= 1 && type <= 23) return sink.unit(p);
      if (type === 24) return readAggregated(p, 1, sink);
      if (type !== 28 || p.length < 3) return sink.error();
      if (p[1]! & 0x80) sink.fragmentStart([(p[0]! & 0xe0) | (p[1]! & 0x1f)], p.subarray(2));
      else sink.fragmentPart(p.subarray(2));
      if (p[1]! & 0x40) sink.fragmentEnd();
    },
    finish(units) {
      // One look at each unit (this runs for every picture): an IDR slice, an SPS.
      let keyframe = false;
      let sps = false;
      for (let i = 0; i < units.length; i++) {
        const type = h264NalType(units[i]!);
        if (type === 5) keyframe = true;
        else if (type === 7) sps = true;
      }
      // Copies: the units are the depacketizer's to reuse once the frame is made.
      if (sps) known = units.filter((u) => h264NalType(u) === 7 || h264NalType(u) === 8).map((u) => u.slice());
      return keyframe && !sps ? { keyframe, before: known } : { keyframe };
    },
  });
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
