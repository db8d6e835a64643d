import { z } from 'zod';
import { tlsSettingsSchema } from '../../platform/tls/tls-settings';
import { PERMISSIONS } from './access';
import { ALL_PERMISSIONS } from './principals';
import { TENANT_ROLE_NAMES } from './tenant-roles';

/** Every permission name the emulator understands (a typo fails start with its path). */
const KNOWN_PERMISSIONS = [...new Set<string>([...ALL_PERMISSIONS, ...Object.values(PERMISSIONS).flat()])].sort() as [string, ...string[]];

const appSchema = z
  .object({
    client_id: z.string().min(1),
    client_secret: z.string().min(1),
    display_name: z.string().min(1).optional(),
    /** Without a list: every permission. */
    permissions: z.array(z.enum(KNOWN_PERMISSIONS)).optional(),
    /** Where browser sign-in may return (exact; an http loopback address on any port). Without: http://localhost and 127.0.0.1. */
    redirect_uris: z
      .array(
        z
          .url({ protocol: /^https?$/, error: 'expected an http(s) address without a fragment' })
          .refine((u) => !u.includes('#'), 'expected an address without a fragment'),
      )
      .min(1)
      .optional(),
  })
  .strict();

const userSchema = z
  .object({
    id: z.string().min(1).optional(),
    userPrincipalName: z.string().regex(/^[^@\s]+@[^@\s]+$/, 'expected name@domain'),
    displayName: z.string().min(1).optional(),
    password: z.string().min(1),
    /** Tenant-wide directory roles, e.g. [Identity Governance Administrator]: delegated entitlement writes need one. */
    roles: z.array(z.enum(TENANT_ROLE_NAMES)).optional(),
  })
  .strict();

const faultsSchema = z
  .object({
    rate_limit_every: z.number().int().positive().optional(),
    unavailable_every: z.number().int().positive().optional(),
    retry_after_seconds: z.number().nonnegative().optional(),
  })
  .strict();

const directoryEmulatorConfigSchema = z
  .object({
    enabled: z.boolean().default(true),
    listen: z
      .string()
      .regex(/^(\[[0-9a-fA-F:.]+\]|[^:\s]*):\d{1,5}$/, 'expected host:port, e.g. 127.0.0.1:1986')
      .default('127.0.0.1:1986'),
    /** Tenant id; without it the demo tenant id kept in demo-account.json. */
    tenant: z
      .string()
      .regex(/^[0-9a-fA-F-]{36}$/, 'expected a tenant id (GUID)')
      .optional(),
    /** The tenant's domain names (sign-in URLs may name one instead of the id); default: its users' domains and <name>.onmicrosoft.com. */
    domains: z.array(z.string().regex(/^[a-z0-9-]+(\.[a-z0-9-]+)+$/i, 'expected a domain name, e.g. contoso.onmicrosoft.com')).optional(),
    token_lifetime_seconds: z.number().int().min(60).max(86_400).default(3600),
    /** Calendar changes kept for delta; a token older than the log answers 410. */
    change_log_limit: z.number().int().min(10).default(5000),
    /** Demo directory objects and a week of events on first run. */
    demo_data: z.boolean().default(true),
    apps: z.array(appSchema).optional(),
    users: z.array(userSchema).optional(),
    faults: faultsSchema.optional(),
    /** https on the same port as http: a certificate of your own, or one from a local CA in `<data_dir>/directory/tls`. */
    tls: tlsSettingsSchema,
  })
  .strict();

export const directorySectionSchema = z
  .object({ emulator: directoryEmulatorConfigSchema.default(directoryEmulatorConfigSchema.parse({})) })
  .loose();

export type DirectoryEmulatorConfig = z.infer<typeof directoryEmulatorConfigSchema>;

/** Parses `directory` and names the offending key in the error: `directory.emulator.apps.0.permissions.1: ...`. */
export function parseDirectorySection(section: unknown): DirectoryEmulatorConfig {
  const parsed = directorySectionSchema.safeParse(section ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = ['directory', ...(issue?.path ?? []).map(String)].join('.');
    throw new Error(`config ${path}: ${issue?.message ?? 'invalid'}`);
  }
  return parsed.data.emulator;
}
