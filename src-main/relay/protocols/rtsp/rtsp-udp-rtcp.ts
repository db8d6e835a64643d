/** Seconds from the NTP epoch (1900) to the Unix epoch (1970). */
const NTP_UNIX_OFFSET = 2_208_988_800;

export interface SenderReport {
  ssrc: number;
  /** Wall clock of the report, in Unix milliseconds. */
  wallClockMs: number;
  /** The RTP timestamp that corresponds to `wallClockMs`, in the track's clock. */
  rtpTimestamp: number;
  packets: number;
  /** Payload octets sent (RTP headers not counted, RFC 3550 6.4.1). */
  octets: number;
  /** Canonical name the receiver uses to group this session's tracks. */
  cname: string;
}

/** Unix milliseconds → the two 32-bit words of an NTP timestamp. */
export function ntpTimestamp(wallClockMs: number): { seconds: number; fraction: number } {
  const seconds = Math.floor(wallClockMs / 1000);
  const fraction = Math.floor(((wallClockMs - seconds * 1000) / 1000) * 0x1_0000_0000);
  return { seconds: (seconds + NTP_UNIX_OFFSET) >>> 0, fraction: fraction >>> 0 };
}

/**
 * A compound RTCP packet (RFC 3550): a sender report with no report blocks, then an SDES with
 * the CNAME, which every compound packet must carry. Receivers map RTP time to wall clock with
 * it (lip sync between a session's tracks).
 */
export function buildSenderReport(report: SenderReport): Buffer {
  const sr = Buffer.alloc(28);
  sr[0] = 0x80; // V=2, no padding, no report blocks
  sr[1] = RTCP_SR;
  sr.writeUInt16BE(6, 2); // 7 words - 1
  sr.writeUInt32BE(report.ssrc >>> 0, 4);
  const ntp = ntpTimestamp(report.wallClockMs);
  sr.writeUInt32BE(ntp.seconds, 8);
  sr.writeUInt32BE(ntp.fraction, 12);
  sr.writeUInt32BE(report.rtpTimestamp >>> 0, 16);
  sr.writeUInt32BE(report.packets >>> 0, 20);
  sr.writeUInt32BE(report.octets >>> 0, 24);
  return Buffer.concat([sr, sdesCname(report.ssrc, report.cname)]);
}

export const RTCP_SR = 200;
export const RTCP_RR = 201;
const RTCP_SDES = 202;

/** An SDES packet with one chunk: `ssrc` and its CNAME (every compound RTCP packet carries one). */
export function sdesCname(ssrc: number, cname: string): Buffer {
  const text = Buffer.from(cname, 'utf8').subarray(0, 255);
  // Chunk: SSRC, CNAME item (type, length, text), a null item, padded to 32 bits.
  const chunkLength = Math.ceil((4 + 2 + text.length + 1) / 4) * 4;
  const out = Buffer.alloc(4 + chunkLength);
  out[0] = 0x81; // V=2, one chunk
  out[1] = RTCP_SDES;
  out.writeUInt16BE(out.length / 4 - 1, 2);
  out.writeUInt32BE(ssrc >>> 0, 4);
  out[8] = 1; // CNAME
  out[9] = text.length;
  text.copy(out, 10);
  // The rest is zero already: the end-of-items null and the padding.
  return out;
}
