import { describe, expect, it } from 'vitest';
import type { TransferStatus } from '@shared/contract/transfers';
import { matchChosenFile, needsFile } from './resume-upload';

const MiB = 1024 * 1024;
const upload = (over: Partial<TransferStatus> = {}) => ({
  id: 't1',
  kind: 'upload' as const,
  state: 'receiving' as const,
  size: 50 * MiB,
  received: 22 * MiB,
  ...over,
});

describe('an upload that needs its file again', () => {
  it.each<[string, Parameters<typeof needsFile>[0], string[], boolean]>([
    ['being read, file held by this page', upload(), ['t1'], false],
    ['being read, page reloaded', upload(), [], true],
    ['paused while read, page reloaded', upload({ state: 'paused' }), [], true],
    ['paused while read, file still held', upload({ state: 'paused' }), ['t1'], false],
    ['all bytes read, going to the service', upload({ state: 'running', received: 50 * MiB }), [], false],
    ['paused after all bytes were read', upload({ state: 'paused', received: 50 * MiB }), [], false],
    ['a desktop upload read from disk by main', upload({ state: 'paused', received: 0, localPath: '/home/a.bin' }), [], false],
    ['canceled', upload({ state: 'canceled' }), [], false],
    ['a download', upload({ kind: 'download', state: 'paused' }), [], false],
  ])('%s', (_case, t, held, expected) => {
    expect(needsFile(t, new Set(held))).toBe(expected);
  });
});

describe('matching the file chosen again', () => {
  const t = { name: 'day1/clip.mp4', size: 50 * MiB, fileName: 'clip.mp4', lastModified: 1_700_000_000_000 };
  it.each<[string, Parameters<typeof matchChosenFile>[1], RegExp | undefined]>([
    ['the same file', { name: 'clip.mp4', size: 50 * MiB, lastModified: 1_700_000_000_000 }, undefined],
    [
      'another name',
      { name: 'other.mp4', size: 50 * MiB, lastModified: 1_700_000_000_000 },
      /That is “other.mp4”; this upload needs “clip.mp4”/,
    ],
    [
      'another size',
      { name: 'clip.mp4', size: 49 * MiB, lastModified: 1_700_000_000_000 },
      /“clip.mp4” has 49 MiB; the upload started with 50 MiB\. Choose the same file, or cancel this upload\./,
    ],
    [
      'a size that rounds the same',
      { name: 'clip.mp4', size: 50 * MiB + 1, lastModified: 1_700_000_000_000 },
      /has 52,428,801 bytes; the upload started with 52,428,800 bytes/,
    ],
    ['changed since', { name: 'clip.mp4', size: 50 * MiB, lastModified: 1_700_000_500_000 }, /was changed after the upload started/],
  ])('%s', (_case, chosen, problem) => {
    const result = matchChosenFile(t, chosen);
    if (!problem) expect(result).toEqual({ ok: true });
    else expect(result.ok === false && result.problem).toMatch(problem);
  });

  it('falls back to the name shown when the file name was not kept, and to name and size alone', () => {
    expect(matchChosenFile({ name: 'a/b.bin', size: 3 }, { name: 'b.bin', size: 3, lastModified: 5 })).toEqual({ ok: true });
  });
});
