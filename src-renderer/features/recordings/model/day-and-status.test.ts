import { describe, expect, it } from 'vitest';
import type { RecordingStatus } from '@shared/contract/recordings';
import { clockOf, dayKeyOf, dayStartMs, daySpan, dayStartsEndingWith, shiftDay, timeOnDay } from './day';
import { statusText } from './status-text';

describe('local days', () => {
  it('reads and prints a day, and walks across months and years', () => {
    expect(dayKeyOf(dayStartMs('2026-11-27'))).toBe('2026-11-27');
    expect(shiftDay('2026-11-30', 1)).toBe('2026-12-01');
    expect(shiftDay('2026-01-01', -1)).toBe('2025-12-31');
    const { startMs, endMs } = daySpan('2026-11-27');
    expect(new Date(startMs).getHours()).toBe(0);
    expect(dayKeyOf(endMs)).toBe('2026-11-28');
    expect(() => dayStartMs('tomorrow')).toThrow(/not a day/);
  });

  it.each([
    ['08:04', '08:04:00'],
    ['08:04:05', '08:04:05'],
    ['23:59:59', '23:59:59'],
    ['24:00', undefined],
    ['8:04', undefined],
    ['08:60', undefined],
  ])('reads the clock time %s on a day', (clock, back) => {
    const ms = timeOnDay('2026-11-27', clock);
    expect(ms === undefined ? undefined : clockOf(ms)).toBe(back);
    if (ms !== undefined) expect(dayKeyOf(ms)).toBe('2026-11-27');
  });

  it('gives usage the starts of the last days and the end of the last', () => {
    const starts = dayStartsEndingWith('2026-11-27', 3);
    expect(starts.map(dayKeyOf)).toEqual(['2026-11-25', '2026-11-26', '2026-11-27', '2026-11-28']);
  });
});

const status = (over: Partial<RecordingStatus>): RecordingStatus => ({
  stream: 'cam',
  state: 'recording',
  schedule: 'always',
  account: 'local',
  bucket: 'demo',
  prefix: 'recordings/cam/',
  spooled: 0,
  spooledBytes: 0,
  uploaded: 3,
  dropped: 0,
  ...over,
});
const at = (ms: number) => `t${ms}`;

describe('status in words', () => {
  it.each([
    ['recording', status({}), { label: 'Recording', tone: 'ok', details: [] }],
    [
      'outside a weekly window',
      status({ state: 'off', schedule: 'weekly', nextChangeMs: 5 }),
      { label: 'Idle: outside the schedule', tone: 'idle', details: ['Starts at t5.'] },
    ],
    [
      'recording until the window ends',
      status({ schedule: 'weekly', nextChangeMs: 9 }),
      { label: 'Recording', tone: 'ok', details: ['Stops at t9.'] },
    ],
    [
      'waiting for its source',
      status({ state: 'waiting', message: 'there is no stream cam in streams' }),
      { label: 'Waiting for the stream', tone: 'warn', details: ['there is no stream cam in streams'] },
    ],
    [
      'uploads failing with segments spooled and dropped',
      status({ uploadError: 'the bucket cannot be reached', failingSinceMs: 7, spooled: 4, dropped: 1 }),
      {
        label: 'Recording',
        tone: 'error',
        details: [
          'Uploads failing since t7: the bucket cannot be reached',
          '4 segments waiting in the local spool.',
          '1 segment dropped from a full spool.',
        ],
      },
    ],
  ])('%s', (_what, value, expected) => {
    expect(statusText(value, at)).toEqual(expected);
  });
});
