import { z } from 'zod';
import { defineService, method } from './define-service';
import { batchItemSchema } from './storage';

const TRANSFER_STATES = ['receiving', 'queued', 'running', 'paused', 'done', 'failed', 'canceled'] as const;
export type TransferState = (typeof TRANSFER_STATES)[number];

/**
 * One file going up to a bucket or down to this machine. Uploads from a browser first arrive at
 * the console (`received` of `size`), then go to the service (`transferred`); uploads of a
 * desktop file and downloads only have `transferred`.
 */
const transferStatusSchema = z.object({
  id: z.string(),
  kind: z.enum(['upload', 'download']),
  accountId: z.string(),
  bucket: z.string(),
  key: z.string(),
  /** What the user sees: the path relative to the folder it was dropped into or downloaded from. */
  name: z.string(),
  /** Downloads: where the file is written; desktop uploads: the file read. */
  localPath: z.string().optional(),
  size: z.number().int().nonnegative(),
  received: z.number().int().nonnegative(),
  transferred: z.number().int().nonnegative(),
  state: z.enum(TRANSFER_STATES),
  /** Bytes per second over the last few seconds while running. */
  bytesPerSecond: z.number().nonnegative(),
  /** The service's etag of the finished object (checked against the bytes sent or received). */
  etag: z.string().optional(),
  error: z.string().optional(),
  createdAt: z.number(),
  finishedAt: z.number().optional(),
  /** Browser uploads: the chosen file's own name and last change, to tell it again after a reload. */
  fileName: z.string().optional(),
  lastModified: z.number().optional(),
});
export type TransferStatus = z.infer<typeof transferStatusSchema>;

const transferSettingsSchema = z.object({
  /** Transfers that run at once; the others wait in the queue. */
  concurrency: z.number().int().min(1, 'at least 1').max(16, 'at most 16'),
  /** Where downloads are written, in folders named after the bucket. */
  downloadsDir: z.string(),
});
export type TransferSettings = z.infer<typeof transferSettingsSchema>;

const relativePath = z
  .string()
  .min(1, 'a file has no name')
  .max(1024)
  .refine(
    (path) => !path.startsWith('/') && !path.split('/').some((part) => part === '' || part === '.' || part === '..'),
    'a relative path like photos/a.jpg',
  );

const newUploadSchema = z.object({
  /** The file's path under the folder it goes into (`trip/day1/a.jpg` for a dropped folder). */
  relativePath,
  size: z
    .number()
    .int()
    .nonnegative()
    .max(10 * 1024 ** 4, 'a Kodo object is at most 10 TiB'),
  /** The desktop app reads a chosen file from disk; a browser sends its bytes to the console. */
  path: z.string().min(1).max(4096).optional(),
  /** The file's last change (ms), kept so the same file can be chosen again after a reload. */
  lastModified: z.number().int().nonnegative().optional(),
  /**
   * What to do when the key is already taken: `overwrite` it, or `keep-both` (the upload takes
   * the first free "name (n).ext"). Absent: the upload fails rather than replace anything.
   */
  onConflict: z.enum(['overwrite', 'keep-both']).optional(),
});

/** The answers to "this name is taken": the renderer asks once per batch. */
export type ConflictChoice = 'overwrite' | 'skip' | 'keep-both';

const ids = z.object({ ids: z.array(z.string().min(1)).min(1, 'no transfer chosen').max(10_000) });

/** HTTP path where a browser sends an upload's bytes: PUT `<path><id>` with Content-Range. */
export const TRANSFER_BODY_PATH = '/console/transfers/';
/** HTTP path of a finished download's file, for a browser on another machine: GET `<path><id>`. */
export const DOWNLOADED_FILE_PATH = '/console/downloads/';

/**
 * Uploads and downloads of objects, queued by main in SQLite so they survive a restart: uploads
 * resume from the last uploaded part (resumable v2, records in data_dir), downloads with Range.
 */
export const transfersService = defineService({
  name: 'transfers',
  methods: {
    list: method(z.void(), z.array(transferStatusSchema)),
    addUploads: method(
      z.object({
        accountId: z.string().min(1),
        bucket: z.string().min(1).max(63),
        /** The folder the files go into (`''` for the bucket's root). */
        prefix: z
          .string()
          .max(1024)
          .refine((p) => p === '' || p.endsWith('/'), 'a folder prefix ends with /'),
        files: z.array(newUploadSchema).min(1, 'no file chosen').max(10_000, 'at most 10,000 files at once'),
        overwrite: z.boolean().default(false),
      }),
      z.array(transferStatusSchema),
    ),
    /** Which of these files (paths under `prefix`) already exist in the bucket, asked of the service. */
    conflicts: method(
      z.object({
        accountId: z.string().min(1),
        bucket: z.string().min(1).max(63),
        prefix: z
          .string()
          .max(1024)
          .refine((p) => p === '' || p.endsWith('/'), 'a folder prefix ends with /'),
        relativePaths: z.array(relativePath).min(1, 'no file chosen').max(10_000, 'at most 10,000 files at once'),
      }),
      z.object({ existing: z.array(z.string()) }),
    ),
    /** Files, and folders with everything under them, into the downloads folder. */
    addDownloads: method(
      z
        .object({
          accountId: z.string().min(1),
          bucket: z.string().min(1).max(63),
          /** The folder the items were chosen in: local paths are relative to it. */
          prefix: z.string().max(1024),
          items: z.array(batchItemSchema).max(10_000).default([]),
          /** Everything under this folder (sub-folders too), listed by main: "select all" of a folder. */
          allIn: z.string().max(1024).optional(),
        })
        .refine((input) => input.items.length > 0 || input.allIn !== undefined, 'nothing selected'),
      z.object({ added: z.number().int() }),
    ),
    pause: method(ids, z.void()),
    resume: method(ids, z.void()),
    cancel: method(ids, z.void()),
    retry: method(ids, z.void()),
    /** Forgets finished, failed and canceled transfers. */
    clearFinished: method(z.void(), z.void()),
    settings: method(z.void(), transferSettingsSchema),
    setConcurrency: method(z.object({ concurrency: transferSettingsSchema.shape.concurrency }), transferSettingsSchema),
  },
  events: {
    /** Transfers that changed since the last event (several per event, at most a few events a second). */
    onTransfers: z.array(transferStatusSchema),
    onRemoved: z.object({ ids: z.array(z.string()) }),
  },
});
