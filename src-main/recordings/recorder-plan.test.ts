import { describe, expect, it } from 'vitest';
import { createMemoryLogger } from '../platform/logger';
import { createCalendarFeed, type CalendarFeed } from './calendar-feed';
import { recordingWindows, type WindowEvent } from './calendar-windows';
import { planAt } from './recorder-plan';
import { readRecordingsSection } from './recordings-config';

const T = Date.parse('2026-11-27T09:00:00Z');
const settings = (entry: Record<string, unknown>) => readRecordingsSection({ cam: { bucket: 'b', ...entry } }).settings[0]!;
const calendarSettings = settings({ schedule: 'calendar', pre_roll: '5s', post_roll: '10s' });

/** A feed over fixed events, read as the module's feed reads the copy. */
function feedOf(events: WindowEvent[], problem?: string): CalendarFeed {
  return {
    read: (stream, rolls) => ({ windows: recordingWindows(events, stream, rolls), ...(problem ? { problem } : {}) }),
    onChange: () => () => undefined,
    want: () => undefined,
  };
}
const meeting: WindowEvent = { id: 'm', subject: 'Board', location: 'cam', startMs: T, endMs: T + 30_000, isCancelled: false };

describe('what a stream schedule wants', () => {
  it('always records; the calendar without a calendar is inactive and says where to configure one', () => {
    expect(planAt(settings({}), T, { timeZone: 'UTC' })).toEqual({ recording: true });
    const plan = planAt(calendarSettings, T, { timeZone: 'UTC', calendar: createCalendarFeed(undefined, createMemoryLogger('warn')) });
    expect(plan).toEqual({ inactive: expect.stringMatching(/directory\.graph, or directory\.emulator\.enabled/) });
  });

  it('before a meeting: off until its pre-roll, naming the meeting and its start', () => {
    const plan = planAt(calendarSettings, T - 60_000, { timeZone: 'UTC', calendar: feedOf([meeting]) });
    expect(plan).toEqual({
      recording: false,
      until: T - 5_000,
      offMessage: 'next meeting: Board at 2026-11-27T09:00:00.000Z',
      window: { current: false, fromMs: T - 5_000, untilMs: T + 40_000, meetings: [{ subject: 'Board', startMs: T, endMs: T + 30_000 }] },
    });
  });

  it('in the pre-roll and until the post-roll: recording, with the window as current', () => {
    const feed = feedOf([meeting]);
    expect(planAt(calendarSettings, T - 5_000, { timeZone: 'UTC', calendar: feed })).toMatchObject({
      recording: true,
      until: T + 40_000,
      window: { current: true },
    });
    expect(planAt(calendarSettings, T + 40_000, { timeZone: 'UTC', calendar: feed })).toMatchObject({
      recording: false,
      offMessage: expect.stringMatching(/^no meeting ahead names cam .*record:cam/),
    });
  });

  it('says when the copy may be behind', () => {
    const plan = planAt(calendarSettings, T - 60_000, { timeZone: 'UTC', calendar: feedOf([], 'the calendar sync fails (401)') });
    expect(plan).toMatchObject({ recording: false, offMessage: expect.stringMatching(/; the calendar sync fails \(401\)$/) });
    expect(plan).not.toHaveProperty('window');
  });
});
