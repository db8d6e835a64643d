import { describe, expect, it } from 'vitest';
import { FAILURES_TO_UNREACHABLE, isSuspect, nextReachability, startChecking, type Reachability } from './reachability';

const ok = (atMs: number) => ({ ok: true as const, atMs });
const fail = (atMs: number, reason = 'connection refused') => ({ ok: false as const, reason, atMs });

describe('reachability of a remote relay', () => {
  it('starts checking, and the first answer decides', () => {
    const start = startChecking(1_000);
    expect(start).toEqual({ state: 'checking', sinceMs: 1_000, failures: 0 });
    expect(nextReachability(start, ok(1_200))).toEqual({ state: 'reachable', sinceMs: 1_200, checkedMs: 1_200, failures: 0 });
    expect(nextReachability(start, fail(1_300))).toEqual({
      state: 'unreachable',
      reason: 'connection refused',
      sinceMs: 1_300,
      checkedMs: 1_300,
      failures: 1,
    });
  });

  it('keeps a reachable relay through one lost check, as suspect, and drops it on the second', () => {
    const up = nextReachability(startChecking(0), ok(100));
    const once = nextReachability(up, fail(5_100));
    expect(once.state).toBe('reachable');
    expect(once.sinceMs).toBe(100);
    expect(isSuspect(once)).toBe(true);
    expect(FAILURES_TO_UNREACHABLE).toBe(2);
    const down = nextReachability(once, fail(6_100, 'timed out after 3 s'));
    expect(down).toMatchObject({ state: 'unreachable', reason: 'timed out after 3 s', sinceMs: 6_100, checkedMs: 6_100 });
    expect(isSuspect(down)).toBe(false);
  });

  it('stays unreachable since the first failure while the reason changes', () => {
    let reach: Reachability = nextReachability(startChecking(0), fail(10, 'connection refused'));
    reach = nextReachability(reach, fail(5_010, 'timed out after 3 s'));
    reach = nextReachability(reach, fail(10_010, 'HTTP 502'));
    expect(reach).toMatchObject({ state: 'unreachable', reason: 'HTTP 502', sinceMs: 10, checkedMs: 10_010, failures: 3 });
  });

  it('recovers on one good answer, since then, and a lost check after that counts from zero', () => {
    const down = nextReachability(nextReachability(startChecking(0), fail(10)), fail(20));
    const back = nextReachability(down, ok(30_000));
    expect(back).toEqual({ state: 'reachable', sinceMs: 30_000, checkedMs: 30_000, failures: 0 });
    expect(nextReachability(back, ok(35_000)).sinceMs).toBe(30_000);
    expect(nextReachability(back, fail(35_000)).state).toBe('reachable');
  });
});
