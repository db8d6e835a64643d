import type { ReportBlock } from './rtsp-client-udp-stats';
import { RTCP_RR, RTCP_SR, sdesCname } from './rtsp-udp-rtcp';

/**
 * A compound RTCP packet (RFC 3550 6.4.2): a receiver report with up to 31 blocks, then the
 * SDES CNAME. With no block it still tells the sender (and every NAT on the way) we are here.
 */
export function buildReceiverReport(reporterSsrc: number, blocks: readonly ReportBlock[], cname: string): Buffer {
  const used = blocks.slice(0, 31);
  const rr = Buffer.alloc(8 + used.length * 24);
  rr[0] = 0x80 | used.length; // V=2, no padding, report count
  rr[1] = RTCP_RR;
  rr.writeUInt16BE(rr.length / 4 - 1, 2);
  rr.writeUInt32BE(reporterSsrc >>> 0, 4);
  for (const [i, block] of used.entries()) {
    const at = 8 + i * 24;
    rr.writeUInt32BE(block.ssrc >>> 0, at);
    rr[at + 4] = block.fractionLost & 0xff;
    rr.writeUIntBE(block.cumulativeLost & 0xff_ffff, at + 5, 3); // 24-bit two's complement
    rr.writeUInt32BE(block.highestSeq >>> 0, at + 8);
    rr.writeUInt32BE(block.jitter >>> 0, at + 12);
    rr.writeUInt32BE(block.lastSr >>> 0, at + 16);
    rr.writeUInt32BE(block.delaySinceLastSr >>> 0, at + 20);
  }
  return Buffer.concat([rr, sdesCname(reporterSsrc, cname)]);
}

/** The sender report in a compound RTCP packet, if any: its SSRC and the middle 32 bits of its NTP time (LSR). */
export function findSenderReport(packet: Buffer): { ssrc: number; ntpMiddle: number } | undefined {
  for (let offset = 0; offset + 4 <= packet.length;) {
    if (packet[offset]! >> 6 !== 2) return undefined;
    const size = (packet.readUInt16BE(offset + 2) + 1) * 4;
    if (packet[offset + 1] === RTCP_SR && offset + 20 <= packet.length) {
      const seconds = packet.readUInt32BE(offset + 8);
      const fraction = packet.readUInt32BE(offset + 12);
      return { ssrc: packet.readUInt32BE(offset + 4), ntpMiddle: (((seconds & 0xffff) << 16) | (fraction >>> 16)) >>> 0 };
    }
    offset += size;
  }
  return undefined;
}
