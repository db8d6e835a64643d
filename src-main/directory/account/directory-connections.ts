import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import {
  CONFIG_CONNECTION_ID,
  TENANT_SIGN_IN_KINDS,
  type DirectoryConnectionInfo,
  type NewTenant,
} from '@shared/contract/directory-accounts';
import { writeFileAtomic } from '../../platform/atomic-write';
import { createCacheKeySource, type SafeStorageLike } from '../../platform/secrets/key-source';
import { openSealedFile } from '../../platform/secrets/sealed-file';
import { createSealedRecordStore } from '../../platform/secrets/sealed-record-store';
import type { Logger } from '../../platform/logger';

const storedTenantSchema = z.object({
  id: z.string(),
  name: z.string(),
  tenant: z.string(),
  clientId: z.string(),
  signIn: z.enum(TENANT_SIGN_IN_KINDS),
  authorityHost: z.string(),
  graphBaseUrl: z.string(),
  /** The PEM file of CAs trusted for this tenant (a TLS-inspecting proxy); absent for none. */
  caFile: z.string().optional(),
});
export type StoredTenant = z.infer<typeof storedTenantSchema>;

const activeFileSchema = z.object({ id: z.string() });

/** What opening a connection needs: a `directory` section and where its sign-in and calendar copy live. */
export interface ConnectionTarget {
  id: string;
  section: unknown;
  /** The sealed sign-in cache of a browser or device-code sign-in. */
  cacheDir: string;
  calendarPath: string;
}

export interface DirectoryConnections {
  tenants(): Promise<StoredTenant[]>;
  /** The connection in use: an added tenant, or the config file's. */
  active(): Promise<ConnectionTarget>;
  /** Its id, without reading any secret (the config's when the stored one is gone). */
  activeId(): Promise<string>;
  calendarPathOf(id: string): string;
  target(id: string): Promise<ConnectionTarget>;
  /** The section a tenant is opened with (also used to try a tenant before keeping it). */
  sectionOf(tenant: Omit<StoredTenant, 'id'>, clientSecret: string | undefined): unknown;
  add(tenant: NewTenant): Promise<StoredTenant>;
  /** Forgets the tenant, its secret and everything kept for it (sign-in cache, calendar copy). */
  remove(id: string): Promise<boolean>;
  use(id: string): Promise<void>;
}

/** The info a tenant's connection will show, known without opening it. */
export const tenantInfo = (tenant: StoredTenant): DirectoryConnectionInfo => ({
  mode: 'graph',
  tenant: tenant.tenant,
  clientId: tenant.clientId,
  signIn: tenant.signIn,
  graphBaseUrl: tenant.graphBaseUrl,
});

/**
 * The directory connections: the config file's (`directory.graph` or the emulator) and the
 * tenants added in Settings, kept in `<data_dir>/directory/tenants.json` with their client
 * secrets sealed beside it, and which one is in use (`active-connection.json`). Each added
 * tenant has a folder of its own for its sign-in cache and calendar copy.
 */
export function createDirectoryConnections(options: {
  dir: string;
  configSection: () => unknown;
  safeStorage?: SafeStorageLike | null;
  logger: Logger;
}): DirectoryConnections {
  const { dir } = options;
  const store = createSealedRecordStore({
    path: join(dir, 'tenants.json'),
    listKey: 'tenants',
    record: storedTenantSchema,
    secrets: openSealedFile({
      path: join(dir, 'tenant-secrets.sealed'),
      label: 'directory tenant secrets',
      key: createCacheKeySource({
        path: join(dir, 'tenant-secrets.key'),
        safeStorage: options.safeStorage ?? null,
        onReset: (reason) =>
          options.logger.warn(`${reason}; a new key was made and the client secrets of added tenants must be typed again`),
      }),
    }),
  });
  const activePath = join(dir, 'active-connection.json');
  const tenantDir = (id: string) => join(dir, 'tenants', id);

  const readActiveId = async (): Promise<string> => {
    try {
      return activeFileSchema.parse(JSON.parse(await readFile(activePath, 'utf8'))).id;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
        options.logger.warn(`${activePath} could not be read; the config file's directory connection is used`, {
          error: (error as Error).message,
        });
      return CONFIG_CONNECTION_ID;
    }
  };

  const sectionOf: DirectoryConnections['sectionOf'] = (tenant, clientSecret) => ({
    graph: {
      tenant: tenant.tenant,
      client_id: tenant.clientId,
      authority_host: tenant.authorityHost,
      base_url: tenant.graphBaseUrl,
      ...(tenant.caFile ? { ca_file: tenant.caFile } : {}),
      ...(tenant.signIn === 'clientCredentials'
        ? { client_secret: clientSecret }
        : { sign_in: tenant.signIn === 'deviceCode' ? 'device_code' : 'browser' }),
    },
  });

  const calendarPathOf = (id: string) =>
    id === CONFIG_CONNECTION_ID ? join(dir, 'calendar.sqlite') : join(tenantDir(id), 'calendar.sqlite');
  const activeId = async () => {
    const id = await readActiveId();
    // A tenant removed by hand from tenants.json: the config's connection, not a dead end.
    return id === CONFIG_CONNECTION_ID || (await store.list()).some((t) => t.id === id) ? id : CONFIG_CONNECTION_ID;
  };

  const target = async (id: string): Promise<ConnectionTarget> => {
    if (id === CONFIG_CONNECTION_ID) return { id, section: options.configSection(), cacheDir: dir, calendarPath: calendarPathOf(id) };
    const tenant = (await store.list()).find((t) => t.id === id);
    if (!tenant) throw new UnknownConnectionError(id);
    const secret = tenant.signIn === 'clientCredentials' ? await store.secretOf(id) : undefined;
    if (tenant.signIn === 'clientCredentials' && secret === undefined)
      throw new Error(
        `the client secret of ${tenant.name} could not be read (its sealed file was lost or made with another key): remove the tenant and add it again`,
      );
    return { id, section: sectionOf(tenant, secret), cacheDir: tenantDir(id), calendarPath: calendarPathOf(id) };
  };

  return {
    tenants: () => store.list(),
    sectionOf,
    target,
    activeId,
    calendarPathOf,
    active: async () => target(await activeId()),
    add(tenant) {
      const { clientSecret, caFile, ...rest } = tenant;
      return store.add(
        { ...rest, name: rest.name || rest.tenant, ...(caFile ? { caFile } : {}) },
        rest.signIn === 'clientCredentials' ? clientSecret : undefined,
      );
    },
    async remove(id) {
      if (!(await store.remove(id))) return false;
      if ((await readActiveId()) === id) await writeFileAtomic(activePath, `${JSON.stringify({ id: CONFIG_CONNECTION_ID })}\n`);
      await rm(tenantDir(id), { recursive: true, force: true });
      return true;
    },
    async use(id) {
      await target(id);
      await writeFileAtomic(activePath, `${JSON.stringify({ id })}\n`);
    },
  };
}

export class UnknownConnectionError extends Error {
  override readonly name = 'UnknownConnectionError';
  constructor(readonly id: string) {
    super(`no directory connection ${id}`);
  }
}
