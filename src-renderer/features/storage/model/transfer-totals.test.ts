import { describe, expect, it } from 'vitest';
import type { TransferStatus } from '@shared/contract/transfers';
import { countsText, etaOf, filterTransfers, mergeTransfers, progressOf, rateText, totalsOf } from './transfer-totals';

const transfer = (over: Partial<TransferStatus>): TransferStatus => ({
  id: 'x',
  kind: 'download',
  accountId: 'local',
  bucket: 'media',
  key: 'a.bin',
  name: 'a.bin',
  size: 1000,
  received: 0,
  transferred: 0,
  state: 'queued',
  bytesPerSecond: 0,
  createdAt: 0,
  ...over,
});

describe('transfer totals', () => {
  it('counts uploads whose file the page lost as needing it, never as waiting (the reload of the issue)', () => {
    const MiB = 1024 * 1024;
    const list = [
      transfer({ id: 'a', kind: 'upload', state: 'receiving', size: 50 * MiB, received: 22 * MiB }),
      transfer({ id: 'b', kind: 'upload', state: 'paused', size: 50 * MiB, received: 8 * MiB }),
    ];
    const afterReload = totalsOf(list, new Set());
    expect(afterReload).toMatchObject({ waiting: 0, paused: 0, needFile: 2, bytesTotal: 100 * MiB, bytesDone: 0 });
    expect(countsText(afterReload)).toBe('2 need their file again');
    const held = totalsOf(list, new Set(['a', 'b']));
    expect(held).toMatchObject({ waiting: 1, paused: 1, needFile: 0 });
    expect(countsText(held)).toBe('1 waiting · 1 paused');
  });

  it('shows the leg under way: the console reading a browser file, then the service receiving it', () => {
    expect(progressOf(transfer({ kind: 'upload', state: 'receiving', received: 500 }))).toBe(0.5);
    expect(progressOf(transfer({ kind: 'upload', state: 'paused', received: 400 }))).toBe(0.4);
    expect(progressOf(transfer({ kind: 'upload', state: 'paused', received: 1000, transferred: 300 }))).toBe(0.3);
    expect(progressOf(transfer({ kind: 'upload', state: 'running', received: 1000, transferred: 250 }))).toBe(0.25);
    expect(progressOf(transfer({ kind: 'download', state: 'running', transferred: 250 }))).toBe(0.25);
    expect(progressOf(transfer({ state: 'done', transferred: 0 }))).toBe(1);
    expect(progressOf(transfer({ state: 'queued', size: 0 }))).toBe(0);
  });

  it('sums what is left and the speed of what runs into one ETA', () => {
    const totals = totalsOf(
      [
        transfer({ id: 'a', state: 'running', transferred: 400, bytesPerSecond: 100 }),
        transfer({ id: 'b', state: 'running', transferred: 0, bytesPerSecond: 100 }),
        transfer({ id: 'c', state: 'queued' }),
        transfer({ id: 'd', state: 'done', transferred: 1000 }),
        transfer({ id: 'e', state: 'failed', error: 'Kodo 614' }),
        transfer({ id: 'f', kind: 'upload', state: 'receiving', received: 900 }),
      ],
      new Set(['f']),
    );
    expect(totals).toMatchObject({ running: 2, waiting: 2, failed: 1, done: 1, bytesDone: 400, bytesTotal: 4000, bytesPerSecond: 200 });
    expect(totals.etaSeconds).toBe(18);
    expect(totalsOf([transfer({ state: 'paused', transferred: 10 })], new Set()).etaSeconds).toBeUndefined();
  });

  it('has an ETA only while a transfer moves', () => {
    expect(etaOf({ state: 'running', size: 1000, transferred: 500, bytesPerSecond: 100 })).toBe(5);
    expect(etaOf({ state: 'running', size: 1000, transferred: 500, bytesPerSecond: 0 })).toBeUndefined();
    expect(etaOf({ state: 'paused', size: 1000, transferred: 500, bytesPerSecond: 100 })).toBeUndefined();
  });

  it('filters by what the user looks for', () => {
    const list = [
      transfer({ id: 'a', state: 'running' }),
      transfer({ id: 'b', state: 'failed' }),
      transfer({ id: 'c', state: 'canceled' }),
      transfer({ id: 'd', state: 'paused' }),
    ];
    expect(filterTransfers(list, 'active').map((t) => t.id)).toEqual(['a', 'd']);
    expect(filterTransfers(list, 'failed').map((t) => t.id)).toEqual(['b']);
    expect(filterTransfers(list, 'done').map((t) => t.id)).toEqual(['c']);
    expect(filterTransfers(list, 'all')).toHaveLength(4);
  });

  it('merges pushed changes in place and appends new transfers', () => {
    const list = [transfer({ id: 'a' }), transfer({ id: 'b' })];
    const merged = mergeTransfers(list, [transfer({ id: 'b', state: 'running' }), transfer({ id: 'c' })]);
    expect(merged.map((t) => `${t.id}:${t.state}`)).toEqual(['a:queued', 'b:running', 'c:queued']);
  });

  it('ends a totals line with speed and time left only while something moves', () => {
    expect(rateText({ bytesPerSecond: 2 * 1024 * 1024, etaSeconds: 200 })).toBe(' · 2.0 MiB/s · 3 min 20 s left');
    expect(rateText({ bytesPerSecond: 0, etaSeconds: undefined })).toBe('');
  });
});
