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

/** A clip of a live stream is 1 s to 10 min long. */
export const CLIP_SECONDS = { min: 1, max: 600 } as const;

const streamName = z.string().min(1, 'a stream name is required').max(256);

/**
 * Where a snapshot or clip of a live stream goes. A recorded stream's go into its recording's
 * bucket and account (these are then ignored); any other's into the bucket named here, of
 * `accountId` (`local`, the embedded emulator, by default). Keys: `<prefix>snapshots/<stream>/<UTC>.jpg`
 * and `<prefix>clips/<stream>/<UTC>.mp4`; `prefix` defaults to the recording's, else the bucket's root.
 */
const liveToBucketSchema = z.object({
  stream: streamName,
  accountId: z.string().min(1).max(256).default('local'),
  bucket: z.string().min(1).max(63).optional(),
  prefix: z
    .string()
    .max(512)
    .refine((p) => p === '' || p.endsWith('/'), 'a folder prefix ends with /')
    .optional(),
});

/** The upload that carries a snapshot or clip: it is listed by the transfers service like any other. */
const liveUploadSchema = z.object({
  transferId: z.string(),
  accountId: z.string(),
  bucket: z.string(),
  key: z.string(),
  bytes: z.number().int().nonnegative(),
});

/** At most this many days listed in one call. */
const LIST_RANGE_LIMIT_MS = 31 * 86_400_000;

/**
 * Where the console's player and exports read a stream's recordings: `<path>recordings.m3u8`,
 * `<path>recordings.mp4` (the queries of `/api/recordings.m3u8` and `.mp4`), on the API's
 * origin. The path holds a ticket: a page of `app://console` is another site to the API, and a
 * `<video>` cannot send the session token.
 */
export const RECORDINGS_TICKET_PATH = '/console/recordings/';

const dayStarts = z
  .array(z.number())
  .min(2, 'at least one day: its start and the start of the next')
  .max(32, 'at most 31 days')
  .refine((starts) => starts.every((start, i) => i === 0 || start > starts[i - 1]!), 'day starts must rise');

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
    /**
     * What a clip of a live stream can be made of: the recording (its bucket) when the stream is
     * recorded, and how many seconds of it the relay holds in memory (its GOP cache, the current
     * GOP: 0 while no source is connected).
     */
    liveBuffer: method(
      z.object({ stream: streamName }),
      z.object({
        recording: z.object({ account: z.string(), bucket: z.string(), prefix: z.string() }).optional(),
        memorySeconds: z.number().nonnegative(),
      }),
    ),
    /** The current picture (as `/api/frame.jpeg` makes it) uploaded as a JPEG through the transfer queue. */
    snapshotToBucket: method(liveToBucketSchema, liveUploadSchema),
    /**
     * The last `seconds` of a stream as one MP4, cut at keyframes, no transcoding: the recording's
     * segments (bucket, spool, the one being written) when it is recorded, else what the relay
     * holds in memory (shorter when it holds less: `seconds` of the answer says how long).
     */
    clipToBucket: method(
      liveToBucketSchema.extend({
        seconds: z
          .number()
          .min(CLIP_SECONDS.min, `a clip is at least ${CLIP_SECONDS.min} s`)
          .max(CLIP_SECONDS.max, `a clip is at most ${CLIP_SECONDS.max} s`),
      }),
      liveUploadSchema.extend({ seconds: z.number().nonnegative() }),
    ),
    /** A ticket for the stream's playback and export paths (RECORDINGS_TICKET_PATH), for a while. */
    playbackTicket: method(z.object({ stream: z.string().min(1).max(256) }), z.object({ path: z.string(), expiresAtMs: z.number() })),
    /**
     * Bytes in the bucket per day: `dayStartsMs` are the viewer's local midnights, the last one
     * the end of the last day; each segment counts in the day its start falls in.
     */
    usage: method(
      z.object({ stream: z.string().min(1).max(256), dayStartsMs: dayStarts }),
      z.object({ days: z.array(z.object({ startMs: z.number(), bytes: z.number(), segments: z.number().int() })) }),
    ),
  },
  events: {
    onStatus: z.array(recordingStatusSchema),
  },
});
