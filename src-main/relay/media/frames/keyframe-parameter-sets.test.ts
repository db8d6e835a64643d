import { describe, expect, it } from 'vitest';
import { toAvcc } from '../codecs/h264/nal';
import { parameterSetKey } from './keyframe-parameter-sets';

const base64 = (text: string) => new Uint8Array(Buffer.from(text, 'base64'));
/** Two 1280x720 SPSs, High (x264) and Constrained Baseline (GStreamer's camera), and a PPS. */
const sps720 = base64('Z2QAH6zZQFAFuwEQAAADABAAAAMDIPGDGWA=');
const spsBaseline = base64('Z0LAH9oBQBbsBagICAoAAAMAAgAAAwA9HjBlQA==');
const pps = base64('aOvjyyLA');
const idr = new Uint8Array([0x65, 0x88, 0x80, 0x10]);
const keyframe = (...units: Uint8Array[]) => toAvcc([...units, idr]);

describe('parameterSetKey', () => {
  it('names the picture an H.264 keyframe starts: profile and size', () => {
    expect(parameterSetKey('H264', keyframe(sps720, pps))).toBe('H264 High 1280x720');
    // Another profile at the same size is another picture to a decoder.
    expect(parameterSetKey('H264', keyframe(spsBaseline, pps))).toBe('H264 Constrained Baseline 1280x720');
  });

  it('is the same for an SPS whose bytes differ but whose picture does not (trailing zero bytes)', () => {
    const padded = new Uint8Array([...sps720, 0, 0]);
    expect(parameterSetKey('H264', keyframe(padded, pps))).toBe(parameterSetKey('H264', keyframe(sps720, pps)));
  });

  it('is undefined for a keyframe without an SPS and for codecs without one', () => {
    expect(parameterSetKey('H264', keyframe(pps))).toBeUndefined();
    expect(parameterSetKey('OPUS', new Uint8Array([1, 2, 3]))).toBeUndefined();
  });

  it('falls back to the bytes of an SPS that does not parse', () => {
    expect(parameterSetKey('H264', keyframe(new Uint8Array([0x67, 0xff]), pps))).toBe('67ff');
  });
});
