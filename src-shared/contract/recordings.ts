import { z } from 'zod';
import { defineService, method } from './define-service';

/** A recorded segment as the bucket holds it (times in ms since the epoch; the HTTP API answers ISO 8601). */
const recordedSegmentSchema = z.object({
  key: z.string(),
  startMs: z.number(),
  endMs: z.number(),
  /** Media length in the file. */
  durationMs: z.number(),
  bytes: z.number(),
  codecs: z.string(),
});
export type RecordedSegmentInfo = z.infer<typeof recordedSegmentSchema>;

/** A span a `schedule: calendar` stream records: its meetings, widened by pre_roll and post_roll, merged where they touch. */
const recordingWindowSchema = z.object({
  /** Recording now (false: the next window). */
  current: z.boolean(),
  /** Recording starts (start - pre_roll) and stops (end + post_roll), ms since the epoch. */
  fromMs: z.number(),
  untilMs: z.number(),
  /** The calendar's meetings in it, by start time. */
  meetings: z.array(z.object({ subject: z.string().nullable(), startMs: z.number(), endMs: z.number() })),
});
export type RecordingWindowStatus = z.infer<typeof recordingWindowSchema>;

const RECORDER_STATES = ['off', 'waiting', 'recording', 'error', 'inactive'] as const;

/** How one stream's recording stands: the schedule's state, where it goes, and its uploads. */
const recordingStatusSchema = z.object({
  stream: z.string(),
  /** `off` outside the schedule, `waiting` for the stream or its source, `inactive` for a schedule that cannot run (no calendar). */
  state: z.enum(RECORDER_STATES),
  message: z.string().optional(),
  schedule: z.enum(['always', 'calendar', 'weekly']),
  account: z.string(),
  bucket: z.string(),
  prefix: z.string(),
  /** When the schedule turns recording on or off next. */
  nextChangeMs: z.number().optional(),
  /** `schedule: calendar`: the window recording now, or the next one (absent when no meeting ahead names the stream). */
  calendarWindow: recordingWindowSchema.optional(),
  /** Finished segments waiting in the local spool for their upload. */
  spooled: z.number().int(),
  spooledBytes: z.number(),
  /** Uploaded since the engine started. */
  uploaded: z.number().int(),
  /** Dropped from a full spool since the engine started (the bucket could not be reached). */
  dropped: z.number().int(),
  /** Why uploads fail, while they do, and since when. */
  uploadError: z.string().optional(),
  failingSinceMs: z.number().optional(),
  lastSegment: recordedSegmentSchema.optional(),
});
export type RecordingStatus = z.infer<typeof recordingStatusSchema>;

/** At most this many days listed in one call. */
const LIST_RANGE_LIMIT_MS = 31 * 86_400_000;

/**
 * The streams recorded into Kodo buckets (`recordings:` of the config): their state, and the
 * segments of a time range as the bucket lists them. Playback is HLS on the relay's API
 * (`/api/recordings.m3u8`), see src-main/recordings/README.md.
 */
export const recordingsService = defineService({
  name: 'recordings',
  methods: {
    status: method(z.void(), z.array(recordingStatusSchema)),
    list: method(
      z
        .object({ stream: z.string().min(1).max(256), startMs: z.number(), endMs: z.number() })
        .refine((r) => r.endMs > r.startMs, 'endMs must be after startMs')
        .refine((r) => r.endMs - r.startMs <= LIST_RANGE_LIMIT_MS, 'list at most 31 days at once'),
      z.object({ segments: z.array(recordedSegmentSchema) }),
    ),
  },
  events: {
    onStatus: z.array(recordingStatusSchema),
  },
});
