import { describe, expect, it } from 'vitest';
import { learnParameterSets, stapUnits, wholeUnits } from './stap-a';

const sps = Uint8Array.from([0x67, 0x42, 0xc0, 0x1f, 0x8c]);
const pps = Uint8Array.from([0x68, 0xce, 0x3c, 0x80]);
const stap = (...units: Uint8Array[]) => Uint8Array.from([0x78, ...units.flatMap((u) => [u.length >> 8, u.length & 0xff, ...u])]);

describe('H.264 NAL units in RTP payloads', () => {
  it('a STAP-A gives its units; a unit cut short ends the list; a fragment gives none', () => {
    expect(stapUnits(stap(sps, pps))).toEqual([sps, pps]);
    expect(stapUnits(stap(sps, pps).subarray(0, 10))).toEqual([sps]);
    expect(wholeUnits(Uint8Array.from([0x7c, 0x85, 1, 2]))).toEqual([]);
    expect(wholeUnits(sps)).toEqual([sps]);
  });

  it('parameter sets seen in band become the fmtp sprop, replaced when the publisher sends new ones', () => {
    const seen = {};
    const first = learnParameterSets('packetization-mode=1;profile-level-id=42e01f', stap(sps, pps), seen);
    expect(first).toBe('packetization-mode=1;profile-level-id=42e01f;sprop-parameter-sets=Z0LAH4w=,aM48gA==');
    expect(learnParameterSets(first, stap(sps, pps), seen)).toBeUndefined();
    const bigger = Uint8Array.from([0x67, 0x42, 0xc0, 0x28, 0x8c]);
    expect(learnParameterSets(first, bigger, seen)).toBe(
      'packetization-mode=1;profile-level-id=42e01f;sprop-parameter-sets=Z0LAKIw=,aM48gA==',
    );
    expect(learnParameterSets(undefined, Uint8Array.from([0x65, 0x88]), {})).toBeUndefined();
  });
});
