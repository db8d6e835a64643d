import { describe, expect, it } from 'vitest';
import type { IndexStatus } from '@shared/contract/storage';
import { describeIndex } from './index-progress';

const base: IndexStatus = { accountId: 'local', bucket: 'b', prefix: '', state: 'none', listed: 0, estimate: 0, bytes: 0 };

describe('describeIndex', () => {
  it.each<[Partial<IndexStatus>, string, number | undefined]>([
    [{}, 'Not counted yet: count to sort by size, time or type and see totals', undefined],
    [{ state: 'running', listed: 3000, estimate: 12_000, bytes: 2048 }, 'Indexed 3,000 of about 12,000 · 2.0 KiB so far', 25],
    [{ state: 'running', listed: 500, estimate: 100, bytes: 0 }, 'Indexed 500 of about 500 · 0 B so far', 99],
    [{ state: 'complete', listed: 1, estimate: 1, bytes: 10 }, '1 file · 10 B including sub-folders', undefined],
    [
      { state: 'complete', listed: 10_000, estimate: 10_000, bytes: 5 * 1024 * 1024 },
      '10,000 files · 5.0 MiB including sub-folders',
      undefined,
    ],
    [
      { state: 'failed', listed: 10, estimate: 20, error: 'Kodo 631: no such bucket' },
      'Stopped at 10 of about 20: Kodo 631: no such bucket',
      undefined,
    ],
  ])('%j', (change, text, percent) => {
    expect(describeIndex({ ...base, ...change })).toEqual(percent === undefined ? { text } : { text, percent });
  });
});
