import { describe, expect, it } from 'vitest';
import { safeEqual } from './safe-equal';

describe('safeEqual', () => {
  it('is true only for the same text, whatever its length or characters', () => {
    expect(safeEqual('hunter2', 'hunter2')).toBe(true);
    expect(safeEqual('hunter2', 'hunter3')).toBe(false);
    expect(safeEqual('hunter2', 'hunter22')).toBe(false);
    expect(safeEqual('', '')).toBe(true);
    expect(safeEqual('pässwörd', 'pässwörd')).toBe(true);
    expect(safeEqual('pässwörd', 'passwörd')).toBe(false);
  });
});
