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
  const cname = Buffer.from(report.cname, 'utf8').subarray(0, 255);
  // SDES chunk: SSRC, CNAME item (type, length, text), a null item, padded to 32 bits.
  const chunkLength = 4 + 2 + cname.length + 1;
  const sdesLength = 4 + Math.ceil(chunkLength / 4) * 4;
  const out = Buffer.alloc(28 + sdesLength);
  out[0] = 0x80; // V=2, no padding, no report blocks
  out[1] = 200; // SR
  out.writeUInt16BE(6, 2); // 7 words - 1
  out.writeUInt32BE(report.ssrc >>> 0, 4);
  const ntp = ntpTimestamp(report.wallClockMs);
  out.writeUInt32BE(ntp.seconds, 8);
  out.writeUInt32BE(ntp.fraction, 12);
  out.writeUInt32BE(report.rtpTimestamp >>> 0, 16);
  out.writeUInt32BE(report.packets >>> 0, 20);
  out.writeUInt32BE(report.octets >>> 0, 24);
  out[28] = 0x81; // V=2, one chunk
  out[29] = 202; // SDES
  out.writeUInt16BE(sdesLength / 4 - 1, 30);
  out.writeUInt32BE(report.ssrc >>> 0, 32);
  out[36] = 1; // CNAME
  out[37] = cname.length;
  cname.copy(out, 38);
  // The rest is zero already: the end-of-items null and the padding.
  return out;
}
