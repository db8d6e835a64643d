import { z } from 'zod';
import { parseBytes, parseDurationMs } from './durations';
import { parseWeeklyWindow, ScheduleError, type WeeklyWindow } from './weekly-windows';

/** Kodo keys are at most 1024 bytes; the prefix leaves room for `YYYY-MM-DD/HH-MM-SS.mmmZ.mp4`. */
const MAX_PREFIX = 990;

const duration = (what: string, minMs: number, maxMs: number) =>
  z.union([z.string(), z.number()]).transform((value, ctx) => {
    const ms = parseDurationMs(value);
    if (ms === undefined || ms < minMs || ms > maxMs) {
      ctx.addIssue({
        code: 'custom',
        message: `${what} is a duration from ${minMs / 1000} s to ${maxMs / 60_000} min, e.g. 10s or 1m, not ${JSON.stringify(value)}`,
      });
      return z.NEVER;
    }
    return ms;
  });

/** When a stream records: always, during the synced calendar's meetings, or in weekly windows. */
type Schedule = { kind: 'always' } | { kind: 'calendar' } | { kind: 'weekly'; windows: WeeklyWindow[]; text: string[] };

const scheduleSchema = z
  .union([z.string(), z.array(z.string()).min(1)], {
    error: 'schedule is always, calendar, or weekly windows such as ["mon-fri 08:00-18:00"]',
  })
  .transform((value, ctx): Schedule => {
    if (value === 'always') return { kind: 'always' };
    if (value === 'calendar') return { kind: 'calendar' };
    const texts = typeof value === 'string' ? [value] : value;
    try {
      return { kind: 'weekly', windows: texts.map(parseWeeklyWindow), text: texts };
    } catch (error) {
      if (!(error instanceof ScheduleError)) throw error;
      ctx.addIssue({ code: 'custom', message: `schedule: ${error.message}; or always, or calendar` });
      return z.NEVER;
    }
  });

/** One stream's recording, as written under `recordings: <stream>:`. */
const recordingEntrySchema = z
  .object({
    bucket: z
      .string()
      .regex(/^[a-zA-Z0-9_-]{1,63}$/, 'bucket is a Kodo bucket name: letters, digits, - and _ (1-63)')
      .describe('the Kodo bucket the segments go to'),
    account: z.string().min(1).default('local').describe('the storage account (its id or name); local is the embedded emulator'),
    prefix: z
      .string()
      .max(MAX_PREFIX)
      .refine((p) => !p.startsWith('/'), 'prefix is a key prefix such as recordings/cam/, without a leading /')
      .optional()
      .describe('key prefix of the segments (default recordings/<stream>/)'),
    segment: duration('segment', 1_000, 600_000)
      .default(10_000)
      .describe('segment length, e.g. 10s: each starts on a keyframe, so it is at least a GOP'),
    schedule: scheduleSchema
      .default({ kind: 'always' })
      .describe('always | calendar | weekly windows, e.g. ["mon-fri 08:00-18:00"] (the machine\'s time zone)'),
    retain_days: z
      .number()
      .int()
      .min(1)
      .max(36_500)
      .optional()
      .describe('days a segment is kept: a lifecycle rule on the prefix (deleteAfterDays)'),
    pre_roll: duration('pre_roll', 0, 600_000)
      .default(0)
      .describe("recording starts this long before a window opens (the stream's GOP cache adds what it holds)"),
    post_roll: duration('post_roll', 0, 600_000).default(0).describe('recording goes on this long after a window closes'),
    calendar_interval: duration('calendar_interval', 1_000, 3_600_000)
      .default(60_000)
      .describe(
        'schedule: calendar: the round interval of the calendar sync when a recording starts it (a moved meeting shows within one)',
      ),
    spool_max: z
      .union([z.string(), z.number()])
      .transform((value, ctx) => {
        const bytes = parseBytes(value);
        if (bytes === undefined || bytes < 1_000_000) {
          ctx.addIssue({ code: 'custom', message: `spool_max is a size of at least 1MB, e.g. 512MB or 2GB, not ${JSON.stringify(value)}` });
          return z.NEVER;
        }
        return bytes;
      })
      .default(1_000_000_000)
      .describe('local spool while the bucket cannot be reached (default 1GB); beyond it the oldest segments are dropped'),
  })
  .strict();

type RecordingEntry = z.output<typeof recordingEntrySchema>;

/** A stream's recording with its defaults filled in. */
export interface RecordingSettings extends Omit<RecordingEntry, 'prefix'> {
  stream: string;
  prefix: string;
}

/** `recordings:` of the config: stream name → its recording. */
export const recordingsSectionSchema = z
  .record(z.string(), recordingEntrySchema, {
    error: 'expected stream names and their recordings, e.g. recordings: { cam: { bucket: demo } }',
  })
  .nullable()
  .optional()
  .describe('streams recorded into a Kodo bucket: stream name → bucket, segment, schedule, retain_days');

/** `recordings/<stream>/`, with the stream name kept to what a key can carry plainly. */
function defaultPrefix(stream: string): string {
  return `recordings/${stream.replace(/[^A-Za-z0-9._-]/g, '_')}/`;
}

export interface ReadRecordings {
  settings: RecordingSettings[];
  /** One message per stream entry that is wrong (the rest still record). */
  problems: Array<{ stream: string; message: string }>;
}

/**
 * Reads `recordings:` entry by entry: a mistake in one stream's entry is said with its key
 * and leaves the others recording.
 */
export function readRecordingsSection(section: unknown): ReadRecordings {
  const out: ReadRecordings = { settings: [], problems: [] };
  if (section === undefined || section === null) return out;
  if (typeof section !== 'object' || Array.isArray(section)) {
    out.problems.push({
      stream: '',
      message: 'recordings: expected stream names and their recordings, e.g. recordings: { cam: { bucket: demo } }',
    });
    return out;
  }
  for (const [stream, entry] of Object.entries(section as Record<string, unknown>)) {
    const parsed = recordingEntrySchema.safeParse(entry ?? {});
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const key = issue.code === 'unrecognized_keys' ? issue.keys.join(', ') : issue.path.join('.');
      const message =
        issue.code === 'unrecognized_keys'
          ? `unknown key ${key} (known: ${Object.keys(recordingEntrySchema.shape).join(', ')})`
          : `${key ? `${key}: ` : ''}${issue.message}`;
      out.problems.push({ stream, message: `recordings.${stream}: ${message}` });
      continue;
    }
    const prefix =
      parsed.data.prefix === undefined
        ? defaultPrefix(stream)
        : parsed.data.prefix === '' || parsed.data.prefix.endsWith('/')
          ? parsed.data.prefix
          : `${parsed.data.prefix}/`;
    out.settings.push({ ...parsed.data, stream, prefix });
  }
  return out;
}
