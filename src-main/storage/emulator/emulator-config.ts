import { z } from 'zod';
import { tlsSettingsSchema } from '../../platform/tls/tls-settings';
import { REGION_IDS } from './regions';

const bucketSchema = z
  .object({
    name: z.string().regex(/^[a-zA-Z0-9_-]{1,63}$/, 'bucket name: letters, digits, - and _ (1-63)'),
    private: z.boolean().default(false),
    domains: z.array(z.string().min(1)).default([]),
    /** Mirror origin for /prefetch and misses on download, e.g. http://127.0.0.1:8080 */
    mirror: z.string().url().optional(),
    /** Timestamp anti-leech key; when set, downloads need `sign` and `t`. */
    anti_leech_key: z.string().min(1).optional(),
    /**
     * Upload acceleration: the bucket's accelerated upload host (as Kodo names it,
     * `<bucket>.kodo-accelerate.<region>.qiniucs.com`), answered in the region query's
     * `up.acc_domains`. It must reach this emulator (a hosts entry, a proxy).
     */
    accelerate_domain: z.string().min(1).optional(),
    /** The Kodo region the bucket lives in (z0, cn-east-2, z1, z2, na0, as0, ap-southeast-2, ap-southeast-3). */
    region: z.enum(REGION_IDS).default('z0'),
    /** Bucket tags (at most 10), as bucketTagging sets them; the config's replace the stored ones on start. */
    tags: z
      .record(
        z
          .string()
          .regex(/^[A-Za-z0-9_.:/=+@-]{1,64}$/, 'tag keys: 1-64 letters, digits and _.:/=+-@')
          .refine((k) => !k.toLowerCase().startsWith('kodo'), 'tag keys may not start with kodo'),
        z.string().max(128),
      )
      .refine((t) => Object.keys(t).length <= 10, 'at most 10 tags')
      .optional(),
  })
  .strict();

const accountSchema = z
  .object({
    access_key: z.string().min(1),
    secret_key: z.string().min(1),
    /** Whether CDN directory refresh is allowed (without it: 400038). */
    dir_refresh: z.boolean().default(false),
    buckets: z.array(bucketSchema).default([]),
  })
  .strict();

const emulatorConfigSchema = z
  .object({
    enabled: z.boolean().default(true),
    listen: z
      .string()
      .regex(/^(\[[0-9a-fA-F:.]+\]|[^:\s]*):\d{1,5}$/, 'expected host:port, e.g. 127.0.0.1:1985')
      .default('127.0.0.1:1985'),
    /** Accepted distance between X-Qiniu-Date and the emulator clock. */
    max_clock_skew_seconds: z.number().int().positive().default(900),
    accounts: z.array(accountSchema).optional(),
    /**
     * Workflow templates by name, as the Kodo console defines them: the processing commands a
     * template runs (`;`-separated, like persistentOps). Used by persistentWorkflowTemplateID
     * in upload policies and workflowTemplateID in pfop.
     */
    workflows: z
      .record(z.string().regex(/^[\w.-]{1,64}$/, 'workflow template names: letters, digits, . - _'), z.string().min(1))
      .default({}),
    /** https on the same port as http: a certificate of your own, or one from a local CA in `<data_dir>/storage/tls`. */
    tls: tlsSettingsSchema,
    /**
     * Host names the region query answers: `local` the emulator's own address for every region,
     * `qiniu` Qiniu's public names of each region (for SDK suites run behind a hosts file or proxy).
     */
    region_hosts: z.enum(['local', 'qiniu']).default('local'),
  })
  .strict();

export const storageSectionSchema = z.object({ emulator: emulatorConfigSchema.default(emulatorConfigSchema.parse({})) }).loose();

export type EmulatorConfig = z.infer<typeof emulatorConfigSchema>;
export type AccountConfig = z.infer<typeof accountSchema>;
export type AccountInput = z.input<typeof accountSchema>;

/** Parses `storage` and names the offending key in the error: `storage.emulator.accounts.0.access_key: ...`. */
export function parseStorageSection(section: unknown): EmulatorConfig {
  const parsed = storageSectionSchema.safeParse(section ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = ['storage', ...(issue?.path ?? []).map(String)].join('.');
    throw new Error(`config ${path}: ${issue?.message ?? 'invalid'}`);
  }
  return parsed.data.emulator;
}

export function parseAccounts(accounts: AccountInput[]): AccountConfig[] {
  return z.array(accountSchema).parse(accounts);
}
