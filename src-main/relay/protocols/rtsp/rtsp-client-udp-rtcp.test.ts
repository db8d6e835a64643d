import { describe, expect, it } from 'vitest';
import { buildReceiverReport, findSenderReport } from './rtsp-client-udp-rtcp';
import { buildSenderReport, ntpTimestamp } from './rtsp-udp-rtcp';

describe('RTCP for the RTSP client over UDP', () => {
  it('writes a receiver report block by block, then the SDES CNAME', () => {
    const block = {
      ssrc: 0x0102_0304,
      fractionLost: 36,
      cumulativeLost: -2,
      highestSeq: 0x1_0007,
      jitter: 12,
      lastSr: 0xaabb_ccdd,
      delaySinceLastSr: 65_536,
    };
    const bytes = buildReceiverReport(0xcafe_babe, [block], 'relay-abc');
    expect(bytes[0]).toBe(0x81); // V=2, one block
    expect(bytes[1]).toBe(201);
    const rrLength = (bytes.readUInt16BE(2) + 1) * 4;
    expect(rrLength).toBe(32);
    expect(bytes.readUInt32BE(4)).toBe(0xcafe_babe);
    expect(bytes.readUInt32BE(8)).toBe(0x0102_0304);
    expect(bytes[12]).toBe(36);
    expect(bytes.readIntBE(13, 3)).toBe(-2);
    expect(bytes.readUInt32BE(16)).toBe(0x1_0007);
    expect(bytes.readUInt32BE(20)).toBe(12);
    expect(bytes.readUInt32BE(24)).toBe(0xaabb_ccdd);
    expect(bytes.readUInt32BE(28)).toBe(65_536);
    const sdes = bytes.subarray(rrLength);
    expect(sdes[1]).toBe(202);
    expect((sdes.readUInt16BE(2) + 1) * 4).toBe(sdes.length);
    expect(sdes.readUInt32BE(4)).toBe(0xcafe_babe);
    expect(sdes[8]).toBe(1);
    expect(sdes.subarray(10, 10 + sdes[9]!).toString()).toBe('relay-abc');
    expect(sdes.length % 4).toBe(0);
  });

  it('writes an empty receiver report before any packet came (it still opens NATs)', () => {
    const bytes = buildReceiverReport(7, [], 'x');
    expect(bytes[0]).toBe(0x80);
    expect(bytes.readUInt16BE(2)).toBe(1);
  });

  it("finds the relay server's sender report (LSR: the NTP time's middle 32 bits), and nothing in a receiver report", () => {
    const wallClockMs = Date.UTC(2024, 0, 1, 12, 0, 0, 500);
    const sr = buildSenderReport({ ssrc: 0x5555_aaaa, wallClockMs, rtpTimestamp: 1, packets: 2, octets: 3, cname: 'cam' });
    const ntp = ntpTimestamp(wallClockMs);
    expect(findSenderReport(sr)).toEqual({ ssrc: 0x5555_aaaa, ntpMiddle: (((ntp.seconds & 0xffff) << 16) | (ntp.fraction >>> 16)) >>> 0 });
    expect(findSenderReport(buildReceiverReport(1, [], 'x'))).toBeUndefined();
    expect(findSenderReport(Buffer.from('not rtcp at all'))).toBeUndefined();
    // A sender report after a receiver report in one compound packet is found too.
    expect(findSenderReport(Buffer.concat([buildReceiverReport(1, [], 'x'), sr]))?.ssrc).toBe(0x5555_aaaa);
  });
});
