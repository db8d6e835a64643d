import { describe, expect, it } from 'vitest';
import { buildSenderReport, ntpTimestamp } from './rtsp-udp-rtcp';

describe('RTCP sender report', () => {
  it('converts Unix time to NTP time', () => {
    expect(ntpTimestamp(0)).toEqual({ seconds: 2_208_988_800, fraction: 0 });
    expect(ntpTimestamp(1_500)).toEqual({ seconds: 2_208_988_801, fraction: 0x8000_0000 });
  });

  it('builds an SR followed by an SDES CNAME, each with a length field that matches', () => {
    const bytes = buildSenderReport({
      ssrc: 0xdeadbeef,
      wallClockMs: 1_700_000_000_250,
      rtpTimestamp: 0x1_0000_0005,
      packets: 12,
      octets: 3400,
      cname: 'relay-abc',
    });
    expect(bytes.length % 4).toBe(0);
    // SR: version 2, no report blocks, PT 200, 7 words.
    expect([bytes[0], bytes[1], bytes.readUInt16BE(2)]).toEqual([0x80, 200, 6]);
    expect(bytes.readUInt32BE(4)).toBe(0xdeadbeef);
    expect(bytes.readUInt32BE(8)).toBe(1_700_000_000 + 2_208_988_800);
    expect(bytes.readUInt32BE(12)).toBe(0x4000_0000); // .25 s
    expect(bytes.readUInt32BE(16)).toBe(5); // wrapped to 32 bits
    expect(bytes.readUInt32BE(20)).toBe(12);
    expect(bytes.readUInt32BE(24)).toBe(3400);
    // SDES: one chunk with the same SSRC and the CNAME item, then a null item and padding.
    const sdes = bytes.subarray(28);
    expect([sdes[0], sdes[1]]).toEqual([0x81, 202]);
    expect((sdes.readUInt16BE(2) + 1) * 4).toBe(sdes.length);
    expect(sdes.readUInt32BE(4)).toBe(0xdeadbeef);
    expect(sdes[8]).toBe(1);
    expect(sdes.subarray(10, 10 + sdes[9]!).toString()).toBe('relay-abc');
    expect(sdes[10 + sdes[9]!]).toBe(0);
  });
});
