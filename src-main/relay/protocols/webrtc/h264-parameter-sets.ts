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
 * else from the SDP) is emitted with the IDR's timestamp. Every packet is emitted as it came
 * (the viewer's sender numbers them): nothing is copied or allocated for the packets that pass,
 * which are all but one or two a GOP, for each viewer.
 */
export function createH264ParameterSetInjector(codec: Codec): (packet: RtpPacket, emit: (packet: RtpPacket) => void) => void {
  const fromSdp = parameterSetsFromFmtp('H264', codec.fmtp);
  let sps = fromSdp.sps[0];
  let pps = fromSdp.pps[0];
  /** Timestamp of the access unit whose parameter sets went out (in band or injected). */
  let setsSentAt: number | undefined;

  const setsBefore = (packet: RtpPacket, emit: (packet: RtpPacket) => void) => {
    if (setsSentAt === packet.timestamp || !sps || !pps) return;
    emit({ ...packet, marker: false, payload: stapA([sps, pps]) });
    setsSentAt = packet.timestamp;
  };

  return (packet, emit) => {
    const payload = packet.payload;
    const type = payload.length > 0 ? nalType(payload[0]!) : 0;
    // A fragmentation unit (most packets) carries no whole unit: only its first piece of an IDR matters.
    if (type === 28) {
      if (payload.length > 1 && (payload[1]! & 0x80) !== 0 && nalType(payload[1]!) === 5) setsBefore(packet, emit);
      emit(packet);
      return;
    }
    const units = wholeUnits(payload);
    for (const unit of units) {
      if (nalType(unit[0]!) === 7) sps = Uint8Array.from(unit);
      if (nalType(unit[0]!) === 8) pps = Uint8Array.from(unit);
    }
    if (units.some((u) => nalType(u[0]!) === 7)) setsSentAt = packet.timestamp;
    if (type === 5 || (type === 24 && units.some((u) => nalType(u[0]!) === 5))) setsBefore(packet, emit);
    emit(packet);
  };
}
