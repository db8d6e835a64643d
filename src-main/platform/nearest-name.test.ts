import { describe, expect, it } from 'vitest';
import { editDistance, nearestName } from './nearest-name.mjs';

describe('nearest name', () => {
  it('counts insertions, deletions, substitutions and swapped neighbours', () => {
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('straems', 'streams')).toBe(1);
    expect(editDistance('lgo', 'log')).toBe(1);
    expect(editDistance('same', 'same')).toBe(0);
  });

  it('suggests the key a typo meant, and nothing for a word that is not close', () => {
    const sections = ['api', 'rtsp', 'webrtc', 'streams', 'log', 'storage', 'directory', 'data_dir'];
    expect(nearestName('straems', sections)).toBe('streams');
    expect(nearestName('lgo', sections)).toBe('log');
    expect(nearestName('Directroy', sections)).toBe('directory');
    expect(nearestName('datadir', sections)).toBe('data_dir');
    expect(nearestName('homekit', sections)).toBeUndefined();
    expect(nearestName('x', [])).toBeUndefined();
  });
});
