import { describe, expect, it } from 'vitest';
import { reloadState, type OutNow } from './blocking-reload';

/** Segment 7 is being filled with 2 parts out; 5 and 6 are complete with 4 parts each. */
const now: OutNow = { pending: 7, pendingParts: 2, partsOf: (n) => (n === 5 || n === 6 ? 4 : undefined), partTarget: 0.3 };

describe('blocking playlist reload (rfc8216bis 6.2.5.2)', () => {
  it('answers once the asked segment is complete', () => {
    expect(reloadState(now, { msn: 6 })).toEqual({ ready: true });
    expect(reloadState(now, { msn: 7 })).toEqual({ ready: false });
    expect(reloadState(now, { msn: 8 })).toEqual({ ready: false });
    // A segment no longer listed: the playlist as it is, at once.
    expect(reloadState(now, { msn: 0 })).toEqual({ ready: true });
  });

  it('answers once the asked part is out; a part past the last of a complete segment is part 0 of the next', () => {
    expect(reloadState(now, { msn: 7, part: 1 })).toEqual({ ready: true });
    expect(reloadState(now, { msn: 7, part: 2 })).toEqual({ ready: false });
    expect(reloadState(now, { msn: 6, part: 3 })).toEqual({ ready: true });
    // Segment 6 has 4 parts: part 4 is part 0 of segment 7, which is out.
    expect(reloadState(now, { msn: 6, part: 4 })).toEqual({ ready: true });
    expect(reloadState({ ...now, pendingParts: 0 }, { msn: 6, part: 4 })).toEqual({ ready: false });
    expect(reloadState(now, { msn: 8, part: 0 })).toEqual({ ready: false });
  });

  it('refuses what is too far ahead: more than one segment past the one being filled, or more parts than the Advance Part Limit', () => {
    expect(reloadState(now, { msn: 9 })).toEqual({ refused: '_HLS_msn=9 is too far ahead: the next segment is 7' });
    // PART-TARGET 0.3 s: the limit is 3 / 0.3 = 10 parts past the last one out (7.1).
    expect(reloadState(now, { msn: 7, part: 11 })).toEqual({ ready: false });
    expect(reloadState(now, { msn: 7, part: 12 })).toEqual({
      refused: '_HLS_part=12 of segment 7 is more than 10 parts ahead of the last one out',
    });
    expect(reloadState(now, { msn: 8, part: 10 })).toHaveProperty('refused');
    expect(reloadState({ ...now, partTarget: 2 }, { msn: 7, part: 5 })).toHaveProperty('refused');
    expect(reloadState({ ...now, partTarget: undefined }, { msn: 7, part: 0 })).toEqual({
      refused: '_HLS_part: this session has no parts',
    });
  });
});
