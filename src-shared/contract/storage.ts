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
export const storageAccountSchema = z.object({
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
  .refine((account) => Boolean(account.region) !== Boolean(account.endpoints), { message: 'choose a region or give the endpoints of a private deployment', path: ['region'] });
export type NewAccount = z.infer<typeof newAccountSchema>;

export const bucketSummarySchema = z.object({
  name: z.string(),
  region: z.string().optional(),
  private: z.boolean(),
  domains: z.array(z.string()),
});
export type BucketSummary = z.infer<typeof bucketSummarySchema>;

/** Kodo's storage classes by their `type` number. */
export const STORAGE_CLASSES = ['standard', 'infrequent', 'archive', 'deep-archive', 'archive-ir'] as const;
export const storageClass = z.enum(STORAGE_CLASSES);

export const objectSummarySchema = z.object({
  key: z.string(),
  size: z.number().nonnegative(),
  hash: z.string(),
  mimeType: z.string(),
  /** Upload time, ms since the epoch (Kodo counts in 100 ns units). */
  putTime: z.number(),
  storageClass,
});
export type ObjectSummary = z.infer<typeof objectSummarySchema>;

export const objectDetailsSchema = objectSummarySchema.extend({
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
export const listPageSchema = z.object({
  folders: z.array(z.string()),
  objects: z.array(objectSummarySchema),
  marker: z.string().optional(),
});
export type ListPage = z.infer<typeof listPageSchema>;

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
    statObject: method(target.extend({ key: z.string().min(1).max(1024) }), objectDetailsSchema),
  },
  events: {
    onAccounts: z.array(storageAccountSchema),
  },
});
