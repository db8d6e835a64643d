import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createDualProtocolServer } from '../../platform/tls/dual-protocol-server';
import { serverTls, tlsSettingsSchema, type TlsSettings } from '../../platform/tls/tls-settings';
import { mkdir, readFile } from 'node:fs/promises';
import { writeFileAtomic } from '../../platform/atomic-write';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { listen } from '../../platform/listen';
import type { Logger } from '../../platform/logger';
import { parseListen } from '../../platform/config/app-settings';
import { CalendarDelta } from './calendar-delta';
import { seedDemoData } from './demo-data';
import { createEmulatorRoutes } from './emulator-routes';
import { EventService } from './event-service';
import { FaultInjector, type FaultSettings } from './faults';
import { GraphError } from './graph-error';
import { requestIds, sendGraphError, type RequestIds } from './graph-http';
import { GraphStore } from './graph-store';
import { loadPrincipals, type AppInput, type AppPrincipal, type UserInput, type UserPrincipal } from './principals';
import { TimeZones } from './time-zones';
import { signingKeyOf } from './signing-keys';
import { DeviceCodes } from './device-codes';
import { AuthorizationCodes } from './authorization-codes';

export interface DirectoryEmulatorOptions {
  /** `host:port`; port 0 picks a free one. Default 127.0.0.1:1986. */
  listen?: string;
  /** State lives in `<dataDir>/directory/`. */
  dataDir: string;
  /** Tenant id (GUID) the token endpoint and tokens use; default: the demo tenant kept in demo-account.json. */
  tenant?: string | undefined;
  /** The tenant's domain names, usable in sign-in URLs instead of its id; default: its users' domains and `<name>.onmicrosoft.com`. */
  domains?: string[] | undefined;
  /** Apps that may get tokens; without any, a demo app with every permission. */
  apps?: AppInput[] | undefined;
  /** Users who can sign in (password grant) and own calendars; without any, a demo user. */
  users?: UserInput[] | undefined;
  faults?: FaultSettings | undefined;
  logger: Logger;
  /** Epoch ms; tests move time forward to expire tokens. */
  clock?: () => number;
  /** Lifetime of issued access tokens. Default 3600. */
  tokenLifetimeSeconds?: number | undefined;
  /** Calendar changes kept for delta; older delta tokens answer 410. Default 5000. */
  changeLogLimit?: number | undefined;
  /** Seeds demo directory objects and a week of events on first run. Default false. */
  demoData?: boolean | undefined;
  /** https on the same port (`directory.emulator.tls`); default on, with a certificate from a local CA in `<dataDir>/directory/tls`. */
  tls?: TlsSettings | undefined;
}

export interface RunningDirectoryEmulator {
  /** `http://127.0.0.1:<port>`; Graph is at `${url}/v1.0`, tokens at `${url}/${tenant}/oauth2/v2.0/token`. */
  url: string;
  port: number;
  tenant: string;
  apps: AppPrincipal[];
  users: UserPrincipal[];
  /** Forgets the calendar change log: every delta/skip token issued so far answers 410 SyncStateNotFound. */
  evictSyncState(): void;
  /** Replaces the fault settings (and restarts their counting). */
  setFaults(faults: FaultSettings): void;
  close(): Promise<void>;
}

/** The Graph-compatible emulator: token endpoint, /v1.0 directory and calendar, on one port. */
export async function createDirectoryEmulator(options: DirectoryEmulatorOptions): Promise<RunningDirectoryEmulator> {
  const logger = options.logger.child('directory.emulator');
  const clock = options.clock ?? (() => Date.now());
  const root = join(options.dataDir, 'directory');
  await mkdir(root, { recursive: true });
  const principals = await loadPrincipals(root, options.tenant, options.apps, options.users, options.domains);
  const store = new GraphStore(join(root, 'graph.sqlite'), options.changeLogLimit ?? 5000);
  const tokenKey = store.secret('token_key');
  const syncKey = store.secret('sync_key');
  const zones = new TimeZones();
  const events = new EventService(store, zones, clock);
  const delta = new CalendarDelta(store, zones, syncKey);
  const faults = new FaultInjector(options.faults ?? {});
  const signing = await signingKeyOf(store);
  const deviceCodes = new DeviceCodes(clock);
  const authorizationCodes = new AuthorizationCodes(clock);
  const signInDeps = { principals, signing, deviceCodes, key: tokenKey, clock };
  const authorizeDeps = { principals, codes: authorizationCodes, key: tokenKey, clock };
  const tokenDeps = {
    principals,
    key: tokenKey,
    signing,
    deviceCodes,
    authorizationCodes,
    clock,
    tokenLifetimeSeconds: options.tokenLifetimeSeconds ?? 3600,
  };
  if (options.demoData && !store.meta('demo_seeded')) {
    seedDemoData({ store, events, principals, clock });
    store.setMeta('demo_seeded', new Date(clock()).toISOString());
  }
  let publicUrl = '';
  /** Proves a batch step's origin headers came from this emulator's own batch route. */
  const stepKey = randomBytes(24).toString('base64url');

  const route = createEmulatorRoutes({
    directory: { store, principals, clock },
    calendar: { principals, events, delta, zones },
    signIn: signInDeps,
    authorize: authorizeDeps,
    token: tokenDeps,
    signing,
    faults,
    clock,
    publicUrl: () => publicUrl,
    stepKey,
    evictSyncState: () => store.evictChangeLog(),
    setFaults: (body) =>
      faults.set({
        rate_limit_every: positive(body.rate_limit_every),
        unavailable_every: positive(body.unavailable_every),
        retry_after_seconds:
          typeof body.retry_after_seconds === 'number' && body.retry_after_seconds >= 0 ? body.retry_after_seconds : undefined,
      }),
  });

  const tls = await serverTls(options.tls ?? tlsSettingsSchema.parse(undefined), {
    dir: join(options.dataDir, 'directory', 'tls'),
    label: 'Graph directory emulator',
    logger,
  });
  const dual = createDualProtocolServer((req, res) => {
    const ids = requestIds(req);
    route(req, res, ids).catch((error: unknown) => answerFailure(error, req, res, ids, logger, clock()));
  }, tls);
  for (const http of dual.httpServers) http.keepAliveTimeout = 5000;
  const { server } = dual;

  const { host, port } = parseListen(options.listen ?? '127.0.0.1:1986');
  try {
    await listen(server, port, host);
  } catch (error) {
    store.close();
    throw error;
  }
  const address = server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  publicUrl = `http://${shownHost === '0.0.0.0' ? '127.0.0.1' : shownHost === '[::]' ? '[::1]' : shownHost}:${address.port}`;
  logger.info('directory emulator listening', {
    url: publicUrl,
    tenant: principals.tenant,
    apps: principals.apps.length,
    users: principals.users.length,
  });
  // The console's directory client finds the emulator through the demo account, also when the
  // port was picked at random (listen port 0).
  if (principals.demoFile) await recordDemoUrl(principals.demoFile, publicUrl);
  if (principals.demoFile)
    logger.info('demo credentials in use', {
      client_id: principals.apps[0]!.clientId,
      user: principals.users[0]!.userPrincipalName,
      account_file: principals.demoFile,
    });

  return {
    url: publicUrl,
    port: address.port,
    tenant: principals.tenant,
    apps: principals.apps,
    users: principals.users,
    evictSyncState: () => store.evictChangeLog(),
    setFaults: (settings) => faults.set(settings),
    close: async () => {
      dual.closeAllConnections();
      await dual.close();
      store.close();
    },
  };
}

/** A request that failed: Graph's error body, and a log line for what was not a Graph error. */
function answerFailure(error: unknown, req: IncomingMessage, res: ServerResponse, ids: RequestIds, logger: Logger, nowMs: number): void {
  if (error instanceof GraphError) {
    if (error.status >= 500) logger.debug('injected or server failure', { url: req.url?.split('?')[0], status: error.status });
    sendGraphError(res, error, ids, nowMs);
    return;
  }
  logger.error('unexpected error', { url: req.url?.split('?')[0], error });
  sendGraphError(res, new GraphError(500, 'InternalServerError', `The emulator failed: ${(error as Error).message}`), ids, nowMs);
}

function positive(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : undefined;
}

async function recordDemoUrl(demoFile: string, url: string): Promise<void> {
  const demo = JSON.parse(await readFile(demoFile, 'utf8')) as Record<string, unknown>;
  if (demo.url === url) return;
  await writeFileAtomic(demoFile, JSON.stringify({ ...demo, url }, null, 2) + '\n');
}
