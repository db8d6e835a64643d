import { describe, expect, it } from 'vitest';
import { h265SpsFromFmtp, parseH265Sps } from './sps';

// SPS NAL units captured from libx265 (ffmpeg 5.1): `ffmpeg -f lavfi -i testsrc=size=WxH
// -frames:v 1 -c:v libx265 -f hevc`, the bytes after the start code.
const hex = (s: string) => Uint8Array.from(Buffer.from(s, 'hex'));
const SPS_240P = hex('42010101600000030090000003000003003ca00a080f165959a4932bc05a020000030002000003003210');
const SPS_1080P = hex('420101016000000300900000030000030078a003c08010e596566924caf0168080000003008000000c84');

describe('H.265 SPS', () => {
  it('reads size, profile, tier and level of real streams', () => {
    expect(parseH265Sps(SPS_240P)).toMatchObject({ width: 320, height: 240, profile: 'Main', tier: 'Main', level: '2' });
    // 1080 is coded as 1088 with a conformance window: the crop must be applied.
    expect(parseH265Sps(SPS_1080P)).toMatchObject({ width: 1920, height: 1080, profile: 'Main', level: '4' });
  });

  it('finds the SPS in an SDP fmtp and refuses what is not one', () => {
    const fmtp = `sprop-vps=QAEMAf//AWAAAAMAkAAAAwAAAwA8lZgJ; sprop-sps=${Buffer.from(SPS_240P).toString('base64')}; sprop-pps=RAHBcrRiQA==`;
    expect(parseH265Sps(h265SpsFromFmtp(fmtp)!)).toMatchObject({ width: 320, height: 240 });
    expect(() => parseH265Sps(hex('4401c172b46240'))).toThrow(/not an H.265 SPS/);
    expect(() => parseH265Sps(SPS_1080P.subarray(0, 10))).toThrow(/truncated or corrupt/);
  });
});
