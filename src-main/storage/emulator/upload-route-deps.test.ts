import { describe, expect, it } from 'vitest';
import { appendSettled, beginAppend } from './upload-route-deps';

describe('appends in progress', () => {
  it('lets completion wait for a part still being written, then go on', async () => {
    const assembling = new Map<string, Promise<void>>();
    const end = beginAppend(assembling, 'u1');
    const settled = appendSettled(assembling, 'u1', 10_000);
    expect(assembling.has('u1')).toBe(true);
    end();
    await expect(settled).resolves.toBe(true);
    expect(assembling.has('u1')).toBe(false);
  });

  it('answers at once when nothing is written, and gives up after its wait when the write goes on', async () => {
    const assembling = new Map<string, Promise<void>>();
    await expect(appendSettled(assembling, 'none', 10_000)).resolves.toBe(true);
    const end = beginAppend(assembling, 'u2');
    await expect(appendSettled(assembling, 'u2', 5)).resolves.toBe(false);
    end();
  });
});
