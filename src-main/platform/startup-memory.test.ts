import { getHeapSpaceStatistics } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { releaseStartupMemory } from './startup-memory';

const youngGeneration = () => getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')!.space_size;

/** Allocates as a start does: a great deal of it kept, so V8 grows the young generation. */
function startLikeAllocations(): unknown[] {
  const kept: unknown[] = [];
  for (let i = 0; i < 400_000; i++) kept.push({ i, name: `module ${i}`, list: [i, i + 1] });
  return kept;
}

describe('releaseStartupMemory', () => {
  it('shrinks the young generation a start grew to its smallest', () => {
    let kept: unknown[] | undefined = startLikeAllocations();
    const grown = youngGeneration();
    expect(kept.length).toBe(400_000);
    kept = undefined;
    expect(releaseStartupMemory()).toBe(true);
    const after = youngGeneration();
    expect(grown).toBeGreaterThanOrEqual(4 * 1024 * 1024);
    expect(after).toBeLessThanOrEqual(grown / 4);
  });

  it('leaves no gc() to contexts made later, nor to the engine', () => {
    releaseStartupMemory();
    expect(runInNewContext('typeof gc')).toBe('undefined');
    expect(typeof (globalThis as { gc?: unknown }).gc).toBe('undefined');
  });
});
