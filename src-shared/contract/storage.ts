import { z } from 'zod';
import { defineService, method } from './define-service';

/** Kodo's public regions by id, with the name its portal shows. */
export const KODO_REGIONS = {
  z0: 'East China (Zhejiang)',
  'cn-east-2': 'East China (Zhejiang 2)',
  z1: 'North China (Hebei)',
  z2: 'South China (Guangdong)',
  na0: 'North America (Los Angeles)',
  as0: 'Asia Pacific (Singapore)',
  'ap-southeast-2': 'Asia Pacific (Hanoi)',
  'ap-southeast-3': 'Asia Pacific (Ho Chi Minh)',
} as const;
export type KodoRegion = keyof typeof KODO_REGIONS;
export const kodoRegion = z.enum(Object.keys(KODO_REGIONS) as [KodoRegion, ...KodoRegion[]]);

const httpUrl = z.url({ protocol: /^https?$/, error: 'expected an http(s) URL, e.g. https://uc.example.com' });

/**
 * A private deployment's service addresses. `uc` alone is enough when the deployment answers
 * region queries; otherwise give each service.
 */
export const customEndpointsSchema = z.object({
  uc: httpUrl,
  rs: httpUrl.optional(),
  rsf: httpUrl.optional(),
  api: httpUrl.optional(),
  up: httpUrl.optional(),
  io: httpUrl.optional(),
});
export type CustomEndpoints = z.infer<typeof customEndpointsSchema>;

/** An account as the console sees it: never its SecretKey. */
const storageAccountSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** `emulator`: the embedded local service, set up with no typing. */
  kind: z.enum(['emulator', 'kodo']),
  accessKey: z.string(),
  region: kodoRegion.optional(),
  endpoints: customEndpointsSchema.optional(),
});
export type StorageAccount = z.infer<typeof storageAccountSchema>;

export const newAccountSchema = z
  .object({
    name: z.string().trim().max(64).optional(),
    accessKey: z.string().trim().min(1, 'the AccessKey is required').max(128),
    secretKey: z.string().trim().min(1, 'the SecretKey is required').max(128),
    region: kodoRegion.optional(),
    endpoints: customEndpointsSchema.optional(),
  })
  .refine((account) => Boolean(account.region) !== Boolean(account.endpoints), {
    message: 'choose a region or give the endpoints of a private deployment',
    path: ['region'],
  });
export type NewAccount = z.infer<typeof newAccountSchema>;

const bucketSummarySchema = z.object({
  name: z.string(),
  region: z.string().optional(),
  private: z.boolean(),
  domains: z.array(z.string()),
});
export type BucketSummary = z.infer<typeof bucketSummarySchema>;

/** Kodo's storage classes by their `type` number. */
export const STORAGE_CLASSES = ['standard', 'infrequent', 'archive', 'deep-archive', 'archive-ir'] as const;
const storageClass = z.enum(STORAGE_CLASSES);
export type StorageClass = z.infer<typeof storageClass>;

const objectSummarySchema = z.object({
  key: z.string(),
  size: z.number().nonnegative(),
  hash: z.string(),
  mimeType: z.string(),
  /** Upload time, ms since the epoch (Kodo counts in 100 ns units). */
  putTime: z.number(),
  storageClass,
});
export type ObjectSummary = z.infer<typeof objectSummarySchema>;

const objectDetailsSchema = objectSummarySchema.extend({
  md5: z.string().optional(),
  /** When the object is deleted by its lifecycle, ms since the epoch. */
  expiration: z.number().optional(),
  /** Archive objects: `frozen`, `restoring` or `restored`. */
  restore: z.enum(['frozen', 'restoring', 'restored']).optional(),
  metadata: z.record(z.string(), z.string()),
});
export type ObjectDetails = z.infer<typeof objectDetailsSchema>;

const bucketName = z.string().regex(/^[a-zA-Z0-9_-]{1,63}$/, 'a bucket name has letters, digits, - and _ (1-63)');
const target = z.object({ accountId: z.string().min(1), bucket: bucketName });

/** One page of a folder: sub-folders (from the `/` delimiter) and files; `marker` continues it. */
const listPageSchema = z.object({
  folders: z.array(z.string()),
  objects: z.array(objectSummarySchema),
  marker: z.string().optional(),
});
export type ListPage = z.infer<typeof listPageSchema>;

const objectKey = z.string().min(1, 'the key is empty').max(1024, 'a key has at most 1024 characters');
/** A folder is a key prefix ending in `/` (or the bucket's root, ''). */
const folderPrefix = z
  .string()
  .max(1024)
  .refine((p) => p === '' || p.endsWith('/'), 'a folder prefix ends with /');

/** What a background listing into the local index knows of a folder (its whole subtree). */
const indexStatusSchema = z.object({
  accountId: z.string(),
  bucket: z.string(),
  prefix: z.string(),
  state: z.enum(['none', 'running', 'complete', 'failed']),
  /** Keys listed so far under the prefix (all depths). */
  listed: z.number().int().nonnegative(),
  /** Best guess of the total while running; equals `listed` when complete. */
  estimate: z.number().int().nonnegative(),
  /** Bytes of the keys listed so far. */
  bytes: z.number().nonnegative(),
  /** When the index of this folder was last complete, ms since the epoch. */
  completedAt: z.number().optional(),
  error: z.string().optional(),
});
export type IndexStatus = z.infer<typeof indexStatusSchema>;

const SORT_FIELDS = ['name', 'size', 'time', 'type'] as const;
export type SortField = (typeof SORT_FIELDS)[number];

/** One row of a folder from the index: a sub-folder with its totals, or a file. */
const folderEntrySchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('folder'), key: z.string(), files: z.number().int(), bytes: z.number(), putTime: z.number() }),
  objectSummarySchema.extend({ kind: z.literal('file') }),
]);
export type FolderEntry = z.infer<typeof folderEntrySchema>;

const sortedPageSchema = z.object({
  entries: z.array(folderEntrySchema),
  /** Rows of the folder level (sub-folders + files) in the index so far. */
  total: z.number().int().nonnegative(),
  offset: z.number().int().nonnegative(),
});
export type SortedPage = z.infer<typeof sortedPageSchema>;

/** A file or a whole folder (every key under the prefix) that a batch acts on. */
export const batchItemSchema = z.object({ key: objectKey, folder: z.boolean() });
export type BatchItem = z.infer<typeof batchItemSchema>;

const batchItems = z.array(batchItemSchema).max(10_000).default([]);
/**
 * "Select all" of a folder: every key under this prefix (sub-folders included), listed page by
 * page by main, never sent from the renderer key by key. Moved or copied keys keep their path
 * below the prefix.
 */
const allIn = folderPrefix.optional();

export const batchRequestSchema = z
  .discriminatedUnion('kind', [
    target.extend({ kind: z.literal('delete'), items: batchItems, allIn }),
    target.extend({
      kind: z.enum(['move', 'copy']),
      items: batchItems,
      allIn,
      toBucket: bucketName,
      toPrefix: folderPrefix,
      overwrite: z.boolean().default(false),
    }),
    target.extend({
      kind: z.literal('rename'),
      item: batchItemSchema,
      newName: z
        .string()
        .trim()
        .min(1, 'the new name is empty')
        .max(1024)
        .refine((name) => !name.includes('/'), 'a name cannot contain / (use Move to change folder)'),
      overwrite: z.boolean().default(false),
    }),
  ])
  .refine((request) => request.kind === 'rename' || request.items.length > 0 || request.allIn !== undefined, {
    message: 'nothing selected',
    path: ['items'],
  });
export type BatchRequest = z.input<typeof batchRequestSchema>;

/** Progress of a delete/move/copy/rename, run by main in batches of at most 1000 keys. */
const batchStatusSchema = z.object({
  id: z.string(),
  kind: z.enum(['delete', 'move', 'copy', 'rename']),
  accountId: z.string(),
  bucket: z.string(),
  /** What the user sees: "Delete 2,500 objects in photos/2024/". */
  title: z.string(),
  state: z.enum(['listing', 'running', 'done', 'failed']),
  done: z.number().int().nonnegative(),
  failed: z.number().int().nonnegative(),
  /** Keys to act on; grows while folders are being listed. */
  total: z.number().int().nonnegative(),
  /** The first failures, with Kodo's code in words. */
  errors: z.array(z.object({ key: z.string(), message: z.string() })),
});
export type BatchStatus = z.infer<typeof batchStatusSchema>;

const LINK_EXPIRY_LIMIT_SECONDS = 30 * 24 * 3600;

/**
 * A lifecycle rule of a bucket (Kodo's `/rules/*`): what happens to objects under a prefix some
 * days after upload. 0 days leaves that step out.
 */
const lifecycleRuleSchema = z.object({
  name: z.string().regex(/^[A-Za-z0-9_]{1,49}$/, 'a rule name has letters, digits and _ (1-49)'),
  prefix: z.string().max(1024).default(''),
  toInfrequentAfterDays: z.number().int().min(0).max(36_500).default(0),
  toArchiveAfterDays: z.number().int().min(0).max(36_500).default(0),
  deleteAfterDays: z.number().int().min(0).max(36_500).default(0),
});
export type LifecycleRule = z.infer<typeof lifecycleRuleSchema>;

export const CORS_METHODS = ['GET', 'HEAD', 'PUT', 'POST', 'DELETE'] as const;

/** A CORS rule of a bucket, applied to its download responses. */
const corsRuleSchema = z.object({
  allowedOrigins: z.array(z.string().trim().min(1).max(256)).min(1, 'give at least one origin (* for any)').max(50),
  allowedMethods: z.array(z.enum(CORS_METHODS)).min(1, 'choose at least one method'),
  allowedHeaders: z.array(z.string().trim().min(1).max(256)).max(50).default([]),
  exposedHeaders: z.array(z.string().trim().min(1).max(256)).max(50).default([]),
  maxAgeSeconds: z
    .number()
    .int()
    .min(0)
    .max(86_400 * 365)
    .default(0),
});
export type CorsRule = z.infer<typeof corsRuleSchema>;

/** `host`, `*.host` or `*`, as Kodo's referer anti-leech takes them. */
const refererPattern = z
  .string()
  .trim()
  .regex(/^(\*|(\*\.)?[A-Za-z0-9.-]+(:\d+)?)$/, 'a referer pattern is a host (example.com), *.example.com or *');

/** Referer anti-leech: off, an allow list or a deny list; `allowEmpty` lets requests without Referer through. */
const refererRuleSchema = z
  .object({
    mode: z.enum(['off', 'allow', 'deny']),
    patterns: z.array(refererPattern).max(100).default([]),
    allowEmpty: z.boolean().default(true),
  })
  .refine((rule) => rule.mode === 'off' || rule.patterns.length > 0, {
    message: 'an allow or deny list needs at least one pattern',
    path: ['patterns'],
  });
export type RefererRule = z.infer<typeof refererRuleSchema>;

/** A download domain of a bucket; `test` marks the one Kodo (or the emulator) gave it at creation. */
const bucketDomainSchema = z.object({ domain: z.string(), test: z.boolean() });

const bucketSettingsSchema = z.object({
  name: z.string(),
  region: z.string().optional(),
  private: z.boolean(),
  domains: z.array(bucketDomainSchema),
  lifecycle: z.array(lifecycleRuleSchema),
  cors: z.array(corsRuleSchema),
  referer: refererRuleSchema,
});
export type BucketSettings = z.infer<typeof bucketSettingsSchema>;

/** A host name to bind: lower-case labels of letters, digits and `-`. */
const domainName = z
  .string()
  .trim()
  .toLowerCase()
  .max(253)
  .regex(/^(\*\.)?([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/, 'a domain looks like cdn.example.com');

const PREVIEW_VIEWS = ['original', 'thumbnail', 'poster'] as const;
export type PreviewView = (typeof PREVIEW_VIEWS)[number];

/**
 * Object storage: the embedded emulator and real Kodo accounts, through the official SDK in
 * main. Errors carry Kodo's code in the message (`Kodo 631: no such bucket`).
 */
export const storageService = defineService({
  name: 'storage',
  methods: {
    listAccounts: method(z.void(), z.array(storageAccountSchema)),
    /** Checks the keys by listing buckets before anything is kept; the SecretKey is sealed in data_dir. */
    addAccount: method(newAccountSchema, storageAccountSchema),
    removeAccount: method(z.object({ accountId: z.string().min(1) }), z.void()),
    listBuckets: method(z.object({ accountId: z.string().min(1) }), z.array(bucketSummarySchema)),
    /** In the account's region unless one is given; `private` (Kodo's default is public) needs signed links. */
    createBucket: method(
      z.object({
        accountId: z.string().min(1),
        bucket: bucketName,
        region: z
          .string()
          .regex(/^[a-z0-9-]{1,32}$/, 'a region id such as z0 or cn-east-2')
          .optional(),
        private: z.boolean().optional(),
      }),
      z.void(),
    ),
    /** Access, domains, lifecycle, CORS and referer rules of one bucket, as the service holds them. */
    bucketSettings: method(target, bucketSettingsSchema),
    setBucketAccess: method(target.extend({ private: z.boolean() }), bucketSettingsSchema),
    /** Binds a download domain (on Kodo the domain's CNAME must then point at Kodo's CDN). */
    bindDomain: method(target.extend({ domain: domainName }), bucketSettingsSchema),
    unbindDomain: method(target.extend({ domain: domainName }), bucketSettingsSchema),
    /** Adds the rule, or replaces the one of the same name. */
    saveLifecycleRule: method(target.extend({ rule: lifecycleRuleSchema }), bucketSettingsSchema),
    deleteLifecycleRule: method(target.extend({ name: z.string().min(1).max(49) }), bucketSettingsSchema),
    /** Replaces the bucket's CORS rules (an empty list removes them). */
    setCorsRules: method(target.extend({ rules: z.array(corsRuleSchema).max(10, 'at most 10 CORS rules') }), bucketSettingsSchema),
    setReferer: method(target.extend({ referer: refererRuleSchema }), bucketSettingsSchema),
    /** Kodo refuses to drop a bucket that still holds objects. */
    deleteBucket: method(target, z.void()),
    listObjects: method(
      target.extend({
        prefix: z.string().max(1024).default(''),
        /** `/` lists one folder level; empty lists every key under the prefix. */
        delimiter: z.enum(['/', '']).default('/'),
        marker: z.string().max(4096).optional(),
        limit: z.number().int().min(1).max(1000).default(1000),
      }),
      listPageSchema,
    ),
    statObject: method(target.extend({ key: objectKey }), objectDetailsSchema),
    /** Every object under a prefix (sub-folders included), counted by paging the service's listing. */
    countObjects: method(
      target.extend({ prefix: folderPrefix }),
      z.object({ objects: z.number().int().nonnegative(), bytes: z.number().nonnegative() }),
    ),
    /** Starts (or restarts) the background listing of a folder's subtree into the local index. */
    indexFolder: method(target.extend({ prefix: folderPrefix }), indexStatusSchema),
    indexStatus: method(target.extend({ prefix: folderPrefix }), indexStatusSchema),
    /** One level of a folder from the index, sorted over the whole folder. */
    listSorted: method(
      target.extend({
        prefix: folderPrefix,
        /** Keeps the names that start with this (Kodo's prefix search, inside the folder). */
        search: z.string().max(1024).default(''),
        sort: z.enum(SORT_FIELDS).default('name'),
        descending: z.boolean().default(false),
        offset: z.number().int().nonnegative().default(0),
        limit: z.number().int().min(1).max(1000).default(200),
      }),
      sortedPageSchema,
    ),
    startBatch: method(batchRequestSchema, batchStatusSchema),
    listBatches: method(z.void(), z.array(batchStatusSchema)),
    /** A zero-byte `<prefix>/` object, as Kodo's portal makes folders. */
    createFolder: method(target.extend({ prefix: folderPrefix.refine((p) => p !== '', 'name the folder') }), z.void()),
    updateObject: method(
      target.extend({
        key: objectKey,
        mimeType: z
          .string()
          .regex(/^[\w.+-]+\/[\w.+-]+$/, 'a MIME type looks like image/png')
          .optional(),
        storageClass: storageClass.optional(),
        /** Days until Kodo deletes the object; 0 cancels a scheduled deletion. */
        deleteAfterDays: z.number().int().min(0).max(36_500).optional(),
      }),
      objectDetailsSchema,
    ),
    /** Thaws an archived object for `days` (1-7). */
    restoreObject: method(target.extend({ key: objectKey, days: z.number().int().min(1).max(7) }), objectDetailsSchema),
    /** A link anyone can open until it expires; signed for private buckets. */
    downloadLink: method(
      target.extend({
        key: objectKey,
        expiresInSeconds: z.number().int().min(1, 'at least a second').max(LINK_EXPIRY_LIMIT_SECONDS, 'at most 30 days'),
      }),
      z.object({ url: z.string(), expiresAt: z.number() }),
    ),
    /**
     * An address on the console's own origin that shows the object for a while: `original` (for
     * text and video, with Range), `thumbnail` (imageView2) or `poster` (a video frame, vframe).
     */
    previewLink: method(
      target.extend({ key: objectKey, view: z.enum(PREVIEW_VIEWS) }),
      z.object({ url: z.string(), expiresAt: z.number() }),
    ),
  },
  events: {
    onAccounts: z.array(storageAccountSchema),
    onIndex: indexStatusSchema,
    onBatch: batchStatusSchema,
  },
});
