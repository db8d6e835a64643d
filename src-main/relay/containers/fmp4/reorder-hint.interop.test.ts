import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { splitAnnexB, toAvcc } from '../../codecs/h264/nal';
import { reorderHint, reorderHintFromSps } from './reorder-hint';

/** The SPS ffmpeg's encoder writes for these options (a few frames of a test pattern). */
function encodedSps(codec: 'H264' | 'H265', options: string[]): Uint8Array {
  const format = codec === 'H264' ? 'h264' : 'hevc';
  const encoder = codec === 'H264' ? 'libx264' : 'libx265';
  const quiet = codec === 'H265' ? ['-x265-params', 'log-level=error'] : [];
  const stream = execFileSync('ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', 'testsrc=size=320x240:rate=25', '-frames:v', '3', '-pix_fmt', 'yuv420p', '-c:v', encoder, ...options, ...quiet, '-f', format, 'pipe:1'], { maxBuffer: 16 << 20 });
  const isSps = (u: Uint8Array) => (codec === 'H264' ? (u[0]! & 0x1f) === 7 : ((u[0]! >> 1) & 0x3f) === 33);
  return splitAnnexB(new Uint8Array(stream)).find(isSps)!;
}

describe('reorder hint from the SPS', () => {
  it('reads x264: depth 2 with B-frames (b-pyramid), 0 without, and the frame duration of its timing info', () => {
    expect(reorderHintFromSps('H264', encodedSps('H264', ['-preset', 'veryfast', '-bf', '2', '-g', '25']))).toEqual({ reorderDepth: 2, frameDuration: 3600 });
    expect(reorderHintFromSps('H264', encodedSps('H264', ['-preset', 'veryfast', '-tune', 'zerolatency']))).toMatchObject({ reorderDepth: 0 });
    // ultrafast without zerolatency is Constrained Baseline: no B-frames whatever the VUI says.
    expect(reorderHintFromSps('H264', encodedSps('H264', ['-preset', 'ultrafast']))).toEqual({ reorderDepth: 0 });
  });

  it('reads x265 sps_max_num_reorder_pics', () => {
    expect(reorderHintFromSps('H265', encodedSps('H265', ['-preset', 'veryfast', '-bf', '2']))!.reorderDepth).toBeGreaterThanOrEqual(1);
    expect(reorderHintFromSps('H265', encodedSps('H265', ['-preset', 'ultrafast', '-tune', 'zerolatency']))).toEqual({ reorderDepth: 0 });
  });

  it('prefers the keyframe SPS over the fmtp, and says nothing for a corrupt or missing SPS', () => {
    const bframes = encodedSps('H264', ['-preset', 'veryfast', '-bf', '2']);
    const none = encodedSps('H264', ['-preset', 'veryfast', '-tune', 'zerolatency']);
    const fmtp = `packetization-mode=1;sprop-parameter-sets=${Buffer.from(none).toString('base64')}`;
    expect(reorderHint('H264', fmtp, toAvcc([bframes]))?.reorderDepth).toBe(2);
    expect(reorderHint('H264', fmtp, toAvcc([Uint8Array.of(0x65, 0x88)]))?.reorderDepth).toBe(0);
    expect(reorderHint('H264', undefined, undefined)).toBeUndefined();
    expect(reorderHintFromSps('H264', bframes.subarray(0, 6))).toBeUndefined();
  });
});
