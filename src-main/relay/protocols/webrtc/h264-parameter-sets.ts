import type { Codec } from '../../core/media';
import type { RtpPacket } from '../../core/rtp-packet';
import { parameterSetsFromFmtp } from '../../media/containers/fmp4/parameter-sets';
import { wholeUnits } from '../../media/codecs/h264/stap-a';

const nalType = (byte: number) => byte & 0x1f;

/** A STAP-A packet carrying the given NAL units. */
function stapA(units: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(1 + units.reduce((sum, u) => sum + 2 + u.length, 0));
  out[0] = (units.reduce((nri, u) => Math.max(nri, u[0]! & 0x60), 0) | 24) & 0xff;
  let offset = 1;
  for (const unit of units) {
    out[offset] = unit.length >> 8;
    out[offset + 1] = unit.length & 0xff;
    out.set(unit, offset + 2);
    offset += 2 + unit.length;
  }
  return out;
}

/**
 * H.264 as browsers need it over RTP: the SPS and PPS in band before every IDR. Cameras and
 * ffmpeg publishing over RTSP often send them only in the SDP, and a browser gets no SDP of
 * theirs, so before an IDR that comes without them a STAP-A with the latest known ones (in band,
 * else from the SDP) is sent with the IDR's timestamp. Sequence numbers are the output's own.
 */
export function createH264ParameterSetInjector(codec: Codec): (packet: RtpPacket) => RtpPacket[] {
  const fromSdp = parameterSetsFromFmtp('H264', codec.fmtp);
  let sps = fromSdp.sps[0];
  let pps = fromSdp.pps[0];
  /** Timestamp of the access unit whose parameter sets went out (in band or injected). */
  let setsSentAt: number | undefined;
  let sequence = 0;

  return (packet) => {
    const payload = packet.payload;
    const type = payload.length > 0 ? nalType(payload[0]!) : 0;
    const units = wholeUnits(payload);
    for (const unit of units) {
      if (nalType(unit[0]!) === 7) sps = Uint8Array.from(unit);
      if (nalType(unit[0]!) === 8) pps = Uint8Array.from(unit);
    }
    if (units.some((u) => nalType(u[0]!) === 7)) setsSentAt = packet.timestamp;
    const startsIdr =
      type === 5 ||
      (type === 24 && units.some((u) => nalType(u[0]!) === 5)) ||
      (type === 28 && payload.length > 1 && (payload[1]! & 0x80) !== 0 && nalType(payload[1]!) === 5);
    const out: RtpPacket[] = [];
    if (startsIdr && setsSentAt !== packet.timestamp && sps && pps) {
      out.push({ ...packet, marker: false, sequenceNumber: sequence++ & 0xffff, payload: stapA([sps, pps]) });
      setsSentAt = packet.timestamp;
    }
    out.push({ ...packet, sequenceNumber: sequence++ & 0xffff });
    return out;
  };
}
