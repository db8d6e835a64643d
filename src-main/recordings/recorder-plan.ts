import type { RecordingWindowStatus } from '@shared/contract/recordings';
import type { CalendarFeed } from './calendar-feed';
import { windowsAt, type RecordingWindow } from './calendar-windows';
import type { RecordingSettings } from './recordings-config';
import { scheduleAt } from './schedule-timeline';

/** What a stream's schedule wants at one instant. */
export type RecorderPlan =
  | {
      recording: boolean;
      /** When that changes next (ms); undefined: not foreseen. */
      until?: number;
      /** While off: what the status says (the next meeting, or that none names the stream). */
      offMessage?: string;
      /** Calendar schedules: the window recording now or the next one. */
      window?: RecordingWindowStatus;
    }
  | { /** A schedule that cannot run now: the stream is inactive, and this says why. */ inactive: string };

export interface PlanDeps {
  timeZone: string;
  calendar?: CalendarFeed;
}

const windowStatus = (window: RecordingWindow, now: number): RecordingWindowStatus => ({
  current: window.fromMs <= now,
  fromMs: window.fromMs,
  untilMs: window.untilMs,
  meetings: window.meetings.map(({ subject, startMs, endMs }) => ({ subject, startMs, endMs })),
});

/** Always, weekly windows or the calendar's meetings: whether to record at `now`, and until when. */
export function planAt(settings: RecordingSettings, now: number, deps: PlanDeps): RecorderPlan {
  const schedule = settings.schedule;
  const rolls = { preRollMs: settings.pre_roll, postRollMs: settings.post_roll };
  if (schedule.kind === 'always') return { recording: true };
  if (schedule.kind === 'weekly') return scheduleAt(schedule.windows, now, { timeZone: deps.timeZone, ...rolls });
  const read = deps.calendar?.read(settings.stream, rolls, now) ?? { unavailable: 'schedule: calendar has no calendar to follow' };
  if ('unavailable' in read) return { inactive: read.unavailable };
  const state = windowsAt(read.windows, now);
  const window = state.window && windowStatus(state.window, now);
  const next = state.window?.meetings[0];
  const offMessage = [
    next
      ? `next meeting: ${next.subject ?? '(no subject)'} at ${new Date(next.startMs).toISOString()}`
      : `no meeting ahead names ${settings.stream} (in its location or subject, or a category record:${settings.stream})`,
    read.problem,
  ]
    .filter(Boolean)
    .join('; ');
  return { recording: state.recording, until: state.until, offMessage, ...(window ? { window } : {}) };
}
