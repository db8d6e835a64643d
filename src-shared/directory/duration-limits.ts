import { wholeNumber } from '../format/whole-number';
import { isoDurationMs } from './iso-duration';

// How long the durations of a policy may be, and what a person is told when one is missing or
// out of range. The editor shows these words under the field, main refuses a PUT with them, so
// they speak of days and of what the duration does, never of ISO 8601 or property names.

const DAY_MS = 86_400_000;

export interface DurationLimit {
  /** Longest accepted, in days; null where neither Graph nor the admin center sets one. */
  maxDays: number | null;
  /** Shown when the duration is empty or zero. */
  missing: string;
  /** Shown when it is longer than `maxDays`. */
  tooLong: string;
}

const days = (count: number) => `${wholeNumber(count)} ${count === 1 ? 'day' : 'days'}`;

/**
 * Graph documents no upper bound for an assignment's `expiration.duration`; ten years is the
 * limit chosen here (a longer one is a typo, as 99999 days is), so it is refused, not bent.
 */
const MAX_ACCESS_DAYS = 3650;
/** The admin center lets approvers take at most 14 days to decide on a request. */
const MAX_DECISION_DAYS = 14;

export const DURATION_LIMITS = {
  access: {
    maxDays: MAX_ACCESS_DAYS,
    missing: 'Enter how many days access lasts (1 or more)',
    tooLong: `Access can last at most ${days(MAX_ACCESS_DAYS)}`,
  },
  decision: {
    maxDays: MAX_DECISION_DAYS,
    missing: 'Enter within how many days approvers must decide (1 or more)',
    tooLong: `Approvers can have at most ${days(MAX_DECISION_DAYS)} to decide`,
  },
  escalation: {
    maxDays: MAX_DECISION_DAYS,
    missing: 'Enter after how many days the request goes to the escalation approvers (1 or more)',
    tooLong: `A request can wait at most ${days(MAX_DECISION_DAYS)} before it is escalated`,
  },
  review: { maxDays: null, missing: 'Enter how many days each review lasts (1 or more)', tooLong: '' },
} as const satisfies Record<string, DurationLimit>;

export type DurationProblem = { code: 'required' | 'tooLong'; message: string };

/**
 * What is wrong with a duration the policy needs, in a person's words; null when it is fine.
 * Absent and zero read the same: either way nothing would be waited for. A text that is not a
 * duration is left to the shape check, which names the format.
 */
export function durationProblem(limit: DurationLimit, iso: string | null | undefined): DurationProblem | null {
  if (!iso) return { code: 'required', message: limit.missing };
  const ms = isoDurationMs(iso);
  if (ms === null) return null;
  if (ms <= 0) return { code: 'required', message: limit.missing };
  if (limit.maxDays !== null && ms > limit.maxDays * DAY_MS) return { code: 'tooLong', message: limit.tooLong };
  return null;
}

/** `P14D` → "14 days", `PT12H` → "12 hours", `P2W` → "2 weeks": a duration as a sentence says it. */
export function durationWords(iso: string): string {
  const ms = isoDurationMs(iso);
  if (ms === null) return iso;
  const hours = Math.round(ms / 3_600_000);
  if (hours % 24 !== 0) return `${wholeNumber(hours)} ${hours === 1 ? 'hour' : 'hours'}`;
  const whole = hours / 24;
  if (/^P\d+W$/.test(iso)) return `${whole / 7} ${whole === 7 ? 'week' : 'weeks'}`;
  return days(whole);
}
