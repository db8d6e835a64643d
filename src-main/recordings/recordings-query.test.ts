import { describe, expect, it } from 'vitest';
import { parseIsoTime, parseOffsetMs, parseRecordingsQuery, RecordingsQueryError } from './recordings-query';

const NOW = Date.parse('2026-11-27T12:00:00Z');
const rules = { startRequired: true, maxRangeMs: 24 * 3_600_000, now: NOW };
const query = (text: string) => new URLSearchParams(text);

describe('recordings queries', () => {
  it('reads src and the range; end defaults to now', () => {
    expect(parseRecordingsQuery(query('src=cam&start=2026-11-27T08:00:00Z&end=2026-11-27T09:00:00.500Z'), rules)).toEqual({
      src: 'cam',
      startMs: Date.parse('2026-11-27T08:00:00Z'),
      endMs: Date.parse('2026-11-27T09:00:00.500Z'),
    });
    expect(parseRecordingsQuery(query('src=cam&start=2026-11-27T10:00:00%2B02:00'), rules)).toEqual({
      src: 'cam',
      startMs: Date.parse('2026-11-27T08:00:00Z'),
      endMs: NOW,
    });
    expect(parseRecordingsQuery(query('src=cam'), { ...rules, startRequired: false })).toEqual({ src: 'cam' });
  });

  it('answers 400 saying what is wrong', () => {
    const refusal = (text: string) => {
      try {
        parseRecordingsQuery(query(text), rules);
      } catch (error) {
        expect(error).toBeInstanceOf(RecordingsQueryError);
        return `${(error as RecordingsQueryError).status} ${(error as Error).message}`;
      }
      return 'accepted';
    };
    expect(refusal('start=2026-11-27T08:00:00Z')).toBe('400 src is required: the name of a recorded stream, e.g. ?src=cam');
    expect(refusal('src=cam')).toMatch(/^400 start is required/);
    expect(refusal('src=cam&start=yesterday')).toBe(
      '400 start must be a time in ISO 8601 with its zone, e.g. 2026-11-27T08:00:00Z, not "yesterday"',
    );
    expect(refusal('src=cam&start=2026-11-27T08:00:00')).toMatch(/with its zone/);
    expect(refusal('src=cam&start=2026-02-30T08:00:00Z')).toMatch(/^400 start must be/);
    expect(refusal('src=cam&start=2026-11-27T09:00:00Z&end=2026-11-27T08:00:00Z')).toBe(
      '400 end (2026-11-27T08:00:00.000Z) must be after start (2026-11-27T09:00:00.000Z)',
    );
    expect(refusal('src=cam&start=2026-11-20T00:00:00Z')).toMatch(
      /^400 the range from start to end may be at most 24 hours; this one is 180\.0/,
    );
    expect(refusal('src=cam&src=door&start=2026-11-27T08:00:00Z')).toMatch(/more than once/);
  });

  it('reads a date alone as its UTC midnight, and offsets of segment URLs as whole ms', () => {
    expect(parseIsoTime('start', '2026-11-27')).toBe(Date.parse('2026-11-27T00:00:00Z'));
    expect(parseOffsetMs('4000')).toBe(4000);
    expect(parseOffsetMs(null)).toBe(0);
    expect(() => parseOffsetMs('-1')).toThrow(/t must be a whole number/);
    expect(() => parseOffsetMs('1e3')).toThrow(RecordingsQueryError);
  });
});
