import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fuzzBudget, fuzzTimeout, valueOrTypedError } from '../test-support/fuzz-budget';
import { damagedSample } from '../test-support/fuzz-inputs';
import { Fmp4PartsError, retimedFragments, segmentParts } from './fmp4-parts';
import { readRecordingsSection } from './recordings-config';
import { parseOffsetMs, parseRecordingsQuery, RecordingsQueryError } from './recordings-query';
import { segmentKey, segmentStart } from './segment-keys';
import { createRunWriter } from './segment-writer';
import { cameraFrames } from './test-support/camera-frames';
import { parseWeeklyWindow, ScheduleError } from './weekly-windows';

/** A real segment of the recorder's, to damage. */
function sampleSegment(): Buffer {
  const { tracks, frames } = cameraFrames(1);
  const writer = createRunWriter({ tracks, segmentMs: 10_000 });
  const chunks: Uint8Array[] = [];
  for (const f of frames) for (const e of writer.push(f.track, f.frame, f.arrivalMs)) if (e.kind === 'data') chunks.push(...e.parts);
  for (const e of writer.finish()) if (e.kind === 'data') chunks.push(...e.parts);
  return Buffer.concat(chunks);
}

const QUERY_PARTS = [
  'src=cam',
  'src=',
  'src=rtsp://x/y',
  'start=2026-11-27T08:00:00Z',
  'start=2026-11-27',
  'end=2026-11-27T09:00:00.123+08:00',
  'start=2026-02-30T00:00:00Z',
  'end=',
  't=4000',
  'key=recordings/cam/2026-11-27/08-00-00.000Z.mp4',
  'start=9999-99-99T99:99:99Z',
];
const WINDOW_PARTS = [
  'mon',
  'fri',
  'sun',
  'mon-fri',
  'fri-mon',
  'daily',
  'sat,sun',
  ' ',
  '-',
  ',',
  '08:00',
  '18:00',
  '24:00',
  '00:00',
  '25:61',
  '22:00-06:00',
  '7:5',
];

describe('fuzz: recordings config, queries and segment files', () => {
  it(
    'a query is read into a range or refused with a 400/404 that says why',
    () => {
      const text = fc.oneof(
        fc.array(fc.constantFrom(...QUERY_PARTS), { maxLength: 5 }).map((p) => p.join('&')),
        fc.string({ maxLength: 200 }),
      );
      fc.assert(
        fc.property(text, fc.boolean(), (query, startRequired) =>
          valueOrTypedError(() => {
            const params = new URLSearchParams(query);
            const read = parseRecordingsQuery(params, { startRequired, maxRangeMs: 86_400_000, now: Date.now() });
            expect(read.src.length).toBeGreaterThan(0);
            if (read.startMs !== undefined) expect(read.endMs! > read.startMs).toBe(true);
            parseOffsetMs(params.get('t'));
          }, RecordingsQueryError),
        ),
        fuzzBudget(),
      );
    },
    fuzzTimeout(),
  );

  it(
    'a weekly window is read into days and minutes that make sense, or refused with ScheduleError',
    () => {
      const text = fc.oneof(
        fc.array(fc.constantFrom(...WINDOW_PARTS), { maxLength: 6 }).map((p) => p.join(' ')),
        fc.string({ maxLength: 60 }),
      );
      fc.assert(
        fc.property(text, (window) =>
          valueOrTypedError(() => {
            const read = parseWeeklyWindow(window);
            expect([...read.days].every((d) => Number.isInteger(d) && d >= 0 && d <= 6)).toBe(true);
            expect(
              read.startMinute >= 0 &&
                read.startMinute < 1440 &&
                read.endMinute > read.startMinute &&
                read.endMinute <= read.startMinute + 1440,
            ).toBe(true);
          }, ScheduleError),
        ),
        fuzzBudget(),
      );
    },
    fuzzTimeout(),
  );

  it(
    'any recordings: section is read without throwing: settings, or problems naming the stream',
    () => {
      const entry = fc.dictionary(
        fc.constantFrom('bucket', 'account', 'prefix', 'segment', 'schedule', 'retain_days', 'pre_roll', 'post_roll', 'spool_max', 'other'),
        fc.oneof(
          fc.string({ maxLength: 20 }),
          fc.integer(),
          fc.double(),
          fc.array(fc.string({ maxLength: 20 }), { maxLength: 3 }),
          fc.constant(null),
        ),
      );
      fc.assert(
        fc.property(fc.oneof(fc.dictionary(fc.string({ maxLength: 10 }), fc.oneof(entry, fc.anything())), fc.anything()), (section) => {
          const read = readRecordingsSection(section);
          for (const s of read.settings) expect(s.prefix === '' || s.prefix.endsWith('/')).toBe(true);
          for (const p of read.problems) expect(p.message).toMatch(/^recordings/);
        }),
        fuzzBudget(),
      );
    },
    fuzzTimeout(),
  );

  it(
    'segment keys round-trip, and any other key is not read as a segment',
    () => {
      fc.assert(
        fc.property(
          fc.constantFrom('recordings/cam/', '', 'a b/ü/'),
          fc.integer({ min: 0, max: 253_402_300_799_999 }),
          fc.string({ maxLength: 40 }),
          (prefix, ms, junk) => {
            expect(segmentStart(prefix, segmentKey(prefix, ms))).toBe(ms);
            const read = segmentStart(prefix, prefix + junk);
            if (read !== undefined) expect(segmentKey(prefix, read)).toBe(prefix + junk);
          },
        ),
        fuzzBudget(),
      );
    },
    fuzzTimeout(),
  );

  it(
    'a damaged segment file from the bucket is read or refused with Fmp4PartsError, never a crash',
    () => {
      const sample = sampleSegment();
      fc.assert(
        fc.property(
          fc.oneof(
            damagedSample([sample], 12),
            fc.uint8Array({ maxLength: 300 }).map((b) => Buffer.from(b)),
          ),
          fc.double({ min: -10, max: 10, noNaN: true }),
          (bytes, shift) =>
            valueOrTypedError(() => {
              const parts = segmentParts(bytes);
              retimedFragments(bytes, parts, parts.fragments, shift, 1);
            }, Fmp4PartsError),
        ),
        fuzzBudget(),
      );
    },
    fuzzTimeout(),
  );
});
