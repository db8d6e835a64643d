import { describe, expect, it } from 'vitest';
import { clipLengthNote, clipSeconds } from './clip-length';

describe('clip length', () => {
  it('takes whole seconds within 1 to 600', () => {
    expect(clipSeconds(10)).toEqual({ seconds: 10 });
    expect(clipSeconds(' 45 ')).toEqual({ seconds: 45 });
    expect(clipSeconds('2.6')).toEqual({ seconds: 3 });
    expect(clipSeconds('600')).toEqual({ seconds: 600 });
  });

  it('says what is wrong with a length out of bounds or not a number', () => {
    expect(clipSeconds('0')).toEqual({ error: expect.stringContaining('1 to 600 seconds') });
    expect(clipSeconds(601)).toEqual({ error: expect.stringContaining('1 to 600 seconds') });
    expect(clipSeconds('')).toEqual({ error: 'Type a number of seconds.' });
    expect(clipSeconds('ten')).toEqual({ error: 'Type a number of seconds.' });
  });

  it('tells how long the clip of a stream that is not recorded can be', () => {
    expect(clipLengthNote('door', false, 1.2)).toContain('only its last 1.2 s in memory');
    expect(clipLengthNote('door', false, 0)).toContain('nothing to clip');
    expect(clipLengthNote('cam', true, 0.8)).toContain("cam's recording");
  });
});
