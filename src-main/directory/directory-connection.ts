import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { parseListen } from '../platform/config/app-settings';
import type { Logger } from '../platform/logger';
import { createCacheKeySource, type SafeStorageLike } from '../platform/secrets/key-source';
import { createGraphClient, type GraphClient, type GraphExchangeInfo, type RetryInfo, type TokenProvider } from './client/graph-client';
import { createEncryptedCachePlugin } from './client/msal-cache-plugin';
import { CaFileError, createConnectionTrust, readCaFile, readLocalCas, type ConnectionTrust } from './client/connection-trust';
import { DEFAULT_GRAPH_BASE_URL, type DirectoryConnectionInfo } from '../../src-shared/contract/directory-accounts';
import {
  createInteractiveTokenProvider,
  createMsalPublicClient,
  type DeviceCodeInfo,
  type InteractiveTokenProvider,
} from './client/msal-sign-in';
import { createClientCredentialsTokenProvider, createPasswordTokenProvider, GRAPH_DEFAULT_SCOPE } from './client/oauth-token-provider';
import type { RetryOptions } from './client/retry-policy';
import { nodeTls } from '../platform/cjs-builtins';

const DEFAULT_EMULATOR_LISTEN = '127.0.0.1:1986';

const listenAddress = z.string().regex(/^(\[[0-9a-fA-F:.]+\]|[^:\s]*):\d{1,5}$/, 'expected host:port, e.g. 127.0.0.1:1986');

const graphSettingsSchema = z
  .object({
    base_url: z
      .url({ protocol: /^https?$/, error: 'expected an http(s) URL, e.g. https://graph.microsoft.com/v1.0' })
      .default(DEFAULT_GRAPH_BASE_URL),
    /** Tenant id or domain, or `organizations` for any work account. */
    tenant: z.string().min(1).default('organizations'),
    client_id: z.string().min(1, 'client_id is required: the application (client) id of the app registration'),
    /** App-only access (client credentials). Without it the user signs in in the browser. */
    client_secret: z.string().min(1).optional(),
    /** Resource-owner password sign-in, for test tenants and automation only. */
    username: z.string().min(1).optional(),
    password: z.string().min(1).optional(),
    authority_host: z.url({ protocol: /^https?$/ }).default('https://login.microsoftonline.com'),
    /** Overrides `<authority_host>/<tenant>/oauth2/v2.0/token` for the secret and password grants. */
    token_url: z.url({ protocol: /^https?$/ }).optional(),
    scopes: z.array(z.string().min(1)).optional(),
    /** Without secret or password: the system browser (auth code + PKCE), or a device code for a machine with no browser. */
    sign_in: z.enum(['browser', 'device_code']).default('browser'),
    /** A PEM file of CAs trusted for this tenant's sign-in and Graph hosts besides the public roots (a TLS-inspecting corporate proxy). */
    ca_file: z.string().min(1).optional(),
  })
  .loose()
  .refine((graph) => (graph.username === undefined) === (graph.password === undefined), { message: 'username and password go together' });

export const directorySectionSchema = z
  .object({
    graph: graphSettingsSchema.optional(),
    // The emulator module owns this section; only what a client needs is read here.
    emulator: z
      .object({
        enabled: z.boolean().default(true),
        listen: listenAddress.default(DEFAULT_EMULATOR_LISTEN),
        tenant: z.string().min(1).optional(),
        apps: z.array(z.object({ client_id: z.string().min(1), client_secret: z.string().min(1) }).loose()).optional(),
        users: z.array(z.object({ userPrincipalName: z.string().min(1), password: z.string().min(1) }).loose()).optional(),
      })
      .loose()
      .default({ enabled: true, listen: DEFAULT_EMULATOR_LISTEN }),
  })
  .loose();

export type DirectorySettings = z.infer<typeof directorySectionSchema>;

/** A config problem in the `directory` section, naming the key. */
export class DirectoryConfigError extends Error {
  override readonly name = 'DirectoryConfigError';
}

export function parseDirectorySection(section: unknown): DirectorySettings {
  const parsed = directorySectionSchema.safeParse(section ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new DirectoryConfigError(
      `config directory.${issue?.path.join('.') || ''}: ${issue?.message}`.replace('directory.:', 'directory:'),
    );
  }
  return parsed.data;
}

/** What the embedded emulator keeps in `<data_dir>/directory/demo-account.json`. */
const demoAccountSchema = z
  .object({
    tenant: z.string().min(1),
    client_id: z.string().min(1),
    client_secret: z.string().min(1),
    user: z.object({ userPrincipalName: z.string().min(1), password: z.string().min(1) }).loose(),
    /** Where the emulator listens, when it says (it must when its port was picked at random). */
    url: z.string().optional(),
  })
  .loose();
type DemoAccount = z.infer<typeof demoAccountSchema>;

export const demoAccountPath = (dataDir: string) => join(dataDir, 'directory', 'demo-account.json');

async function readDemoAccount(dataDir: string): Promise<DemoAccount> {
  const path = demoAccountPath(dataDir);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      throw new DirectoryConfigError(
        `the directory emulator has not written its demo account yet (${path}); is directory.emulator enabled?`,
      );
    throw error;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new DirectoryConfigError(`${path} is not JSON`);
  }
  const parsed = demoAccountSchema.safeParse(value);
  if (!parsed.success)
    throw new DirectoryConfigError(`${path}: ${parsed.error.issues[0]?.path.join('.')}: ${parsed.error.issues[0]?.message}`);
  return parsed.data;
}

/** The emulator's origin from its listen address (a wildcard host is reached on loopback). */
export function emulatorOrigin(listen: string): string {
  const { host, port } = parseListen(listen);
  const reachable = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host;
  return `http://${reachable.includes(':') ? `[${reachable}]` : reachable}:${port}`;
}

export interface DirectoryConnectionOptions {
  /** `ctx.config.section('directory')` */
  section: unknown;
  dataDir: string;
  logger: Logger;
  /**
   * Shows the sign-in page of a real tenant: Electron's `shell.openExternal` on the desktop.
   * Default: the URL is written to the log, for headless runs.
   */
  openBrowser?: (url: string) => Promise<void>;
  /** Electron's safeStorage, to keep the token cache key in the OS keychain. */
  safeStorage?: SafeStorageLike | null;
  /** Where a browser or device-code sign-in keeps its sealed cache; default `<data_dir>/directory`. */
  cacheDir?: string;
  /** The emulator's origin when the caller knows it better than the config (e.g. port 0). */
  emulatorUrl?: string;
  fetch?: typeof fetch;
  retry?: RetryOptions;
  onRetry?: (info: RetryInfo) => void;
  /** Each HTTP exchange of the directory client (the Graph traffic panel). */
  onExchange?: (info: GraphExchangeInfo) => void;
  /** Device code sign-in: the code to show the person. */
  onDeviceCode?: (code: DeviceCodeInfo) => void;
}

export interface DirectoryConnection {
  client: GraphClient;
  /** The connection's HTTP, trusting what its sign-in trusts: for other clients of the same connection (the calendar sync's). */
  fetch: typeof fetch;
  mode: 'emulator' | 'graph';
  /** Where and how it signs in, for the console (no secrets). */
  info: DirectoryConnectionInfo;
  tokens: TokenProvider;
  /** Present when a user signs in through the browser (a real tenant without secret or password). */
  signIn?: InteractiveTokenProvider;
}

/**
 * The Graph client the directory services use: a real tenant when `directory.graph` is set,
 * else the embedded emulator: the first app and user of `directory.emulator` when the config
 * names them, otherwise its demo account, signed in as the user with the password grant (so
 * `/me` works as it does for a person at the console).
 */
export async function openDirectoryConnection(options: DirectoryConnectionOptions): Promise<DirectoryConnection> {
  const settings = parseDirectorySection(options.section);
  const log = options.logger.child('directory');
  // One trust for everything this connection sends (sign-in, tokens, Graph, the calendar sync).
  const trust = await connectionTrust(options.dataDir, settings.graph?.ca_file);
  const doFetch = options.fetch ?? trust.fetch;
  const clientOptions = { fetch: doFetch, retry: options.retry, onRetry: options.onRetry, onExchange: options.onExchange };

  if (!settings.graph) {
    if (!settings.emulator.enabled)
      throw new DirectoryConfigError('no directory to talk to: set directory.graph (client_id, tenant) or enable directory.emulator');
    // Apps and users given in the config replace the demo ones; the demo file fills in the rest.
    const { tenant, apps, users } = settings.emulator;
    const app = apps?.[0];
    const user = users?.[0];
    const demo = tenant && app && user ? null : await readDemoAccount(options.dataDir);
    const origin = (options.emulatorUrl ?? demo?.url ?? emulatorOrigin(settings.emulator.listen)).replace(/\/+$/, '');
    const tokens = createPasswordTokenProvider({
      tokenUrl: `${origin}/${encodeURIComponent(tenant ?? demo!.tenant)}/oauth2/v2.0/token`,
      clientId: app?.client_id ?? demo!.client_id,
      clientSecret: app?.client_secret ?? demo!.client_secret,
      username: user?.userPrincipalName ?? demo!.user.userPrincipalName,
      password: user?.password ?? demo!.user.password,
      scopes: [GRAPH_DEFAULT_SCOPE, 'offline_access'],
      fetch: doFetch,
    });
    const info: DirectoryConnectionInfo = {
      mode: 'emulator',
      tenant: tenant ?? demo!.tenant,
      clientId: app?.client_id ?? demo!.client_id,
      signIn: 'password',
      graphBaseUrl: `${origin}/v1.0`,
    };
    return {
      client: createGraphClient({ baseUrl: `${origin}/v1.0`, tokens, ...clientOptions }),
      fetch: doFetch,
      mode: 'emulator',
      tokens,
      info,
    };
  }

  const graph = settings.graph;
  const tokenUrl = graph.token_url ?? `${graph.authority_host.replace(/\/+$/, '')}/${encodeURIComponent(graph.tenant)}/oauth2/v2.0/token`;
  const common = { tokenUrl, clientId: graph.client_id, clientSecret: graph.client_secret, fetch: doFetch };
  let tokens: TokenProvider;
  let signIn: InteractiveTokenProvider | undefined;
  if (graph.username !== undefined && graph.password !== undefined) {
    tokens = createPasswordTokenProvider({
      ...common,
      username: graph.username,
      password: graph.password,
      scopes: graph.scopes ?? [GRAPH_DEFAULT_SCOPE, 'offline_access'],
    });
  } else if (graph.client_secret !== undefined) {
    tokens = createClientCredentialsTokenProvider({
      ...common,
      clientSecret: graph.client_secret,
      scopes: graph.scopes ?? [GRAPH_DEFAULT_SCOPE],
    });
  } else {
    const dir = options.cacheDir ?? join(options.dataDir, 'directory');
    const cachePlugin = createEncryptedCachePlugin({
      path: join(dir, 'msal-cache.bin'),
      key: createCacheKeySource({
        path: join(dir, 'token-cache.key'),
        safeStorage: options.safeStorage ?? null,
        onReset: (reason) => log.warn(`${reason}; a new key was made and the next sign-in starts fresh`),
      }),
      onRejected: (reason) => log.warn(`the saved sign-in was refused (${reason}); sign in again`),
    });
    const networkClient = trust.msalNetwork(graph.authority_host);
    const app = await createMsalPublicClient({
      clientId: graph.client_id,
      tenant: graph.tenant,
      authorityHost: graph.authority_host,
      cachePlugin,
      logger: log,
      ...(networkClient ? { networkClient } : {}),
    });
    signIn = createInteractiveTokenProvider({
      app,
      scopes: graph.scopes,
      flow: graph.sign_in === 'device_code' ? 'deviceCode' : 'browser',
      onDeviceCode: options.onDeviceCode,
      openBrowser:
        options.openBrowser ??
        (async (url) => {
          log.info(`sign in to Microsoft Graph: open this address in a browser on this machine: ${url}`);
        }),
    });
    tokens = signIn;
  }
  const info: DirectoryConnectionInfo = {
    mode: 'graph',
    tenant: graph.tenant,
    clientId: graph.client_id,
    signIn:
      graph.username !== undefined
        ? 'password'
        : graph.client_secret !== undefined
          ? 'clientCredentials'
          : graph.sign_in === 'device_code'
            ? 'deviceCode'
            : 'authCode',
    graphBaseUrl: graph.base_url,
  };
  return {
    client: createGraphClient({ baseUrl: graph.base_url, tokens, ...clientOptions }),
    fetch: doFetch,
    mode: 'graph',
    tokens,
    info,
    ...(signIn ? { signIn } : {}),
  };
}

/** Where the console's own emulators keep their CAs (`<data_dir>/<emulator>/tls/ca.pem`). */
const localCaPaths = (dataDir: string) => [join(dataDir, 'directory', 'tls', 'ca.pem'), join(dataDir, 'storage', 'tls', 'ca.pem')];

/**
 * What a connection trusts: the public roots (and NODE_EXTRA_CA_CERTS, which a CA list given to
 * node:https would otherwise leave out), the CAs of the console's own emulators for a host on
 * this machine, and the tenant's CA file for all its hosts.
 */
async function connectionTrust(dataDir: string, caFile: string | undefined): Promise<ConnectionTrust> {
  let userCas: string[] = [];
  if (caFile !== undefined) {
    try {
      userCas = await readCaFile(caFile);
    } catch (error) {
      if (error instanceof CaFileError) throw new DirectoryConfigError(`the tenant's CA file (directory.graph.ca_file): ${error.message}`);
      throw error;
    }
  }
  const envCas = process.env.NODE_EXTRA_CA_CERTS ? readLocalCas([process.env.NODE_EXTRA_CA_CERTS]) : [];
  return createConnectionTrust({
    localCas: readLocalCas(localCaPaths(dataDir)),
    userCas,
    baseCas: [...nodeTls.rootCertificates, ...envCas],
  });
}
