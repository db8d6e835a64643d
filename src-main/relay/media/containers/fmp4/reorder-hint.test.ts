import { describe, expect, it } from 'vitest';
import { splitAnnexB, toAvcc } from '../../codecs/h264/nal';
import { fixture } from '@main/relay/test/media-fixtures';
import { reorderHint, reorderHintFromSps } from './reorder-hint';

/** The first SPS of a stream ffmpeg's encoder wrote (recorded: see the fixtures' README for the options). */
function encodedSps(codec: 'H264' | 'H265', file: string): Uint8Array {
  const isSps = (u: Uint8Array) => (codec === 'H264' ? (u[0]! & 0x1f) === 7 : ((u[0]! >> 1) & 0x3f) === 33);
  return splitAnnexB(fixture(file)).find(isSps)!;
}

// x264/x265 -preset veryfast -bf 2 (the SPS of an MPEG-TS, found by its start code all the same).
const X264_BFRAMES = 'h264-bframes-320x240-2s.mpegts';
const X265_BFRAMES = 'h265-bframes-320x240-2s.mpegts';
const X264_ZEROLATENCY = 'h264-zerolatency-320x240-3f.h264'; // -preset veryfast -tune zerolatency
const X264_ULTRAFAST = 'h264-aud-320x240-2s.h264'; // -preset ultrafast, without zerolatency
const X265_ZEROLATENCY = 'h265-aud-320x240-2s.hevc'; // -preset ultrafast -tune zerolatency

describe('reorder hint from the SPS', () => {
  it('reads x264: depth 2 with B-frames (b-pyramid), 0 without, and the frame duration of its timing info', () => {
    expect(reorderHintFromSps('H264', encodedSps('H264', X264_BFRAMES))).toEqual({ reorderDepth: 2, frameDuration: 3600 });
    expect(reorderHintFromSps('H264', encodedSps('H264', X264_ZEROLATENCY))).toMatchObject({ reorderDepth: 0 });
    // ultrafast without zerolatency is Constrained Baseline: no B-frames whatever the VUI says.
    expect(reorderHintFromSps('H264', encodedSps('H264', X264_ULTRAFAST))).toEqual({ reorderDepth: 0 });
  });

  it('reads x265 sps_max_num_reorder_pics', () => {
    expect(reorderHintFromSps('H265', encodedSps('H265', X265_BFRAMES))!.reorderDepth).toBeGreaterThanOrEqual(1);
    expect(reorderHintFromSps('H265', encodedSps('H265', X265_ZEROLATENCY))).toEqual({ reorderDepth: 0 });
  });

  it('prefers the keyframe SPS over the fmtp, and says nothing for a corrupt or missing SPS', () => {
    const bframes = encodedSps('H264', X264_BFRAMES);
    const none = encodedSps('H264', X264_ZEROLATENCY);
    const fmtp = `packetization-mode=1;sprop-parameter-sets=${Buffer.from(none).toString('base64')}`;
    expect(reorderHint('H264', fmtp, toAvcc([bframes]))?.reorderDepth).toBe(2);
    expect(reorderHint('H264', fmtp, toAvcc([Uint8Array.of(0x65, 0x88)]))?.reorderDepth).toBe(0);
    expect(reorderHint('H264', undefined, undefined)).toBeUndefined();
    expect(reorderHintFromSps('H264', bframes.subarray(0, 6))).toBeUndefined();
  });
});
