import { describe, expect, it } from 'vitest';
import { RtpLossCounter } from './rtp-loss';

const counted = (sequence: number[]) => {
  const counter = new RtpLossCounter();
  for (const seq of sequence) counter.note(seq);
  return counter.lost;
};

describe('RTP loss as a receiver counts it', () => {
  it('gaps are lost packets, across the 16-bit wrap too', () => {
    expect(counted([])).toBe(0);
    expect(counted([10, 11, 12])).toBe(0);
    expect(counted([10, 11, 14])).toBe(2);
    expect(counted([65534, 65535, 0, 2])).toBe(1);
  });

  it('a late packet fills its gap; duplicates do not make the count negative', () => {
    expect(counted([10, 12, 11])).toBe(0);
    expect(counted([10, 10, 11])).toBe(0);
  });
});
