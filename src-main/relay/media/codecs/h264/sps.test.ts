import { describe, expect, it } from 'vitest';
import { parseH264Sps, spsFromFmtp } from './sps';

// SPS NAL units captured from libx264 (ffmpeg 5.1): `ffmpeg -f lavfi -i testsrc2=size=WxH
// -frames:v 1 -c:v libx264 -profile:v P -level L -f h264`, the bytes after the start code.
const hex = (s: string) => Uint8Array.from(Buffer.from(s, 'hex'));
const SPS_720P_HIGH_31 = hex('6764001facd9405005bb011000000300100000030320f1831960');
const SPS_240P_BASELINE_20 = hex('6742c014d90141fb011000000300100000030320f142a480');
const SPS_1080P_MAIN_40 = hex('674d4028eca03c0113f2e022000003000200000300641e30632c');

describe('H.264 SPS', () => {
  it('reads size, profile and level of real streams', () => {
    expect(parseH264Sps(SPS_720P_HIGH_31)).toMatchObject({ width: 1280, height: 720, profile: 'High', level: '3.1' });
    expect(parseH264Sps(SPS_240P_BASELINE_20)).toMatchObject({ width: 320, height: 240, profile: 'Constrained Baseline', level: '2' });
    // 1080 lines are coded as 1088 and cropped: the crop must be applied.
    expect(parseH264Sps(SPS_1080P_MAIN_40)).toMatchObject({ width: 1920, height: 1080, profile: 'Main', level: '4' });
  });

  it('finds the SPS in an SDP fmtp line', () => {
    const fmtp = `packetization-mode=1; sprop-parameter-sets=${Buffer.from(SPS_720P_HIGH_31).toString('base64')},aOvjyyLA; profile-level-id=64001F`;
    expect(parseH264Sps(spsFromFmtp(fmtp)!)).toMatchObject({ width: 1280, height: 720 });
    expect(spsFromFmtp('packetization-mode=1')).toBeUndefined();
  });

  it('refuses what is not an SPS, and truncated bytes, with a clear error', () => {
    expect(() => parseH264Sps(hex('68ebe3cb'))).toThrow(/not an H.264 SPS/);
    expect(() => parseH264Sps(SPS_720P_HIGH_31.subarray(0, 6))).toThrow(/truncated or corrupt/);
  });
});
