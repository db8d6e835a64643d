import { describe, expect, it } from 'vitest';
import { parseBytes, parseDurationMs } from './durations';
import { readRecordingsSection } from './recordings-config';
import { parseWeeklyWindow } from './weekly-windows';

describe('recordings: config', () => {
  it('fills in the defaults: the local account, recordings/<stream>/, 10 s segments, always', () => {
    const { settings, problems } = readRecordingsSection({ cam: { bucket: 'demo' } });
    expect(problems).toEqual([]);
    expect(settings).toEqual([
      {
        stream: 'cam',
        bucket: 'demo',
        account: 'local',
        prefix: 'recordings/cam/',
        segment: 10_000,
        schedule: { kind: 'always' },
        pre_roll: 0,
        post_roll: 0,
        calendar_interval: 60_000,
        spool_max: 1_000_000_000,
      },
    ]);
  });

  it('reads every key as the issue writes them', () => {
    const { settings } = readRecordingsSection({
      'front door': {
        bucket: 'cams',
        account: 'Production',
        prefix: 'doors/front',
        segment: '4s',
        schedule: ['mon-fri 08:00-18:00', 'sat 10:00-14:00'],
        retain_days: 30,
        pre_roll: '5s',
        post_roll: 10,
        calendar_interval: '30s',
        spool_max: '512MB',
      },
    });
    expect(settings[0]).toMatchObject({
      stream: 'front door',
      account: 'Production',
      prefix: 'doors/front/',
      segment: 4000,
      retain_days: 30,
      pre_roll: 5000,
      post_roll: 10_000,
      calendar_interval: 30_000,
      spool_max: 512_000_000,
    });
    expect(settings[0]!.schedule).toMatchObject({ kind: 'weekly', text: ['mon-fri 08:00-18:00', 'sat 10:00-14:00'] });
    // A stream name a key cannot carry plainly gets a plain default prefix.
    expect(readRecordingsSection({ 'front door': { bucket: 'b' } }).settings[0]!.prefix).toBe('recordings/front_door/');
  });

  it('says what is wrong with one stream and records the others', () => {
    const { settings, problems } = readRecordingsSection({
      a: { bucket: 'ok' },
      b: { bucket: 'ok', segmnet: '4s' },
      c: { bucket: 'ok', segment: '0.2s' },
      d: { bucket: 'ok', schedule: 'mon-fry 08:00-18:00' },
      e: { bucket: 'no/slash' },
      f: { bucket: 'ok', schedule: 'sometimes' },
    });
    expect(settings.map((s) => s.stream)).toEqual(['a']);
    expect(problems).toEqual([
      { stream: 'b', message: expect.stringMatching(/^recordings\.b: unknown key segmnet \(known: bucket, account, prefix, segment, /) },
      { stream: 'c', message: 'recordings.c: segment: segment is a duration from 1 s to 10 min, e.g. 10s or 1m, not "0.2s"' },
      { stream: 'd', message: expect.stringContaining('fry is not a day') },
      { stream: 'e', message: expect.stringContaining('bucket is a Kodo bucket name') },
      { stream: 'f', message: expect.stringContaining('"sometimes" is not a weekly window') },
    ]);
    expect(readRecordingsSection('cam').problems[0]!.message).toMatch(/expected stream names/);
  });

  it('takes calendar as a schedule (run later), and nothing at all as no recordings', () => {
    expect(readRecordingsSection({ cam: { bucket: 'b', schedule: 'calendar' } }).settings[0]!.schedule).toEqual({ kind: 'calendar' });
    expect(readRecordingsSection(null)).toEqual({ settings: [], problems: [] });
  });
});

describe('weekly windows', () => {
  it('reads days, ranges (wrapping the week), lists, daily, and windows past midnight', () => {
    const days = (text: string) => [...parseWeeklyWindow(text).days].sort();
    expect(days('mon-fri 08:00-18:00')).toEqual([0, 1, 2, 3, 4]);
    expect(days('fri-mon 00:00-24:00')).toEqual([0, 4, 5, 6]);
    expect(days('sat, sun 10:00-14:00')).toEqual([5, 6]);
    expect(days('Daily 22:00-06:00')).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(parseWeeklyWindow('daily 22:00-06:00')).toMatchObject({ startMinute: 1320, endMinute: 1440 + 360 });
    expect(parseWeeklyWindow('tuesday 9:30-24:00')).toMatchObject({ startMinute: 570, endMinute: 1440 });
  });

  it('refuses what is not a window, saying why', () => {
    expect(() => parseWeeklyWindow('mon-fri')).toThrow(/is not a weekly window: write days then times/);
    expect(() => parseWeeklyWindow('monkey 08:00-09:00')).toThrow(/monkey is not a day/);
    expect(() => parseWeeklyWindow('mon 25:00-26:00')).toThrow(/25:00 is not a time of day/);
    expect(() => parseWeeklyWindow('mon 08:00-08:00')).toThrow(/same time; for whole days write 00:00-24:00/);
    expect(() => parseWeeklyWindow('mon 24:00-08:00')).toThrow(/24:00 is not a time of day \(00:00 to 23:59\)/);
  });
});

describe('durations and sizes', () => {
  it('reads units, and refuses what has none it knows', () => {
    expect([
      parseDurationMs('10s'),
      parseDurationMs('1.5m'),
      parseDurationMs('500ms'),
      parseDurationMs('1h'),
      parseDurationMs(4),
      parseDurationMs('4'),
    ]).toEqual([10_000, 90_000, 500, 3_600_000, 4000, 4000]);
    expect([parseDurationMs('10 sec'), parseDurationMs('-1s'), parseDurationMs(Number.NaN)]).toEqual([undefined, undefined, undefined]);
    expect([parseBytes('512MB'), parseBytes('1GiB'), parseBytes(2048), parseBytes('2 gb')]).toEqual([512e6, 2 ** 30, 2048, 2e9]);
    expect(parseBytes('lots')).toBeUndefined();
  });
});
