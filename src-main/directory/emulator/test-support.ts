// A real directory emulator on a free loopback port with its data in a temp folder, for the
// tests of the emulator and of the Graph client and calendar sync that talk to it.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMemoryLogger } from '../../platform/logger';
import { createDirectoryEmulator, type RunningDirectoryEmulator } from './directory-emulator';
import type { FaultSettings } from './faults';
import { ALL_PERMISSIONS, type AppInput, type UserInput } from './principals';

export const TEST_TENANT = '72f988bf-0000-4000-a000-00000000e2e7';
export const TEST_CLIENT_ID = '1d3b4a6c-0000-4000-a000-0000000c1e47';
export const TEST_CLIENT_SECRET = 'test-client-secret';
export const TEST_USER: Required<UserInput> = {
  id: '5b6e0c1a-0000-4000-a000-0000000a11ce',
  userPrincipalName: 'alice@emulator.test',
  displayName: 'Alice Example',
  password: 'test-password',
  // Alice manages access packages (the console's flows sign in as her); bob holds no role.
  roles: ['Identity Governance Administrator'],
};
export const TEST_OTHER_USER: Required<UserInput> = {
  id: '5b6e0c1a-0000-4000-a000-000000000b0b',
  userPrincipalName: 'bob@emulator.test',
  displayName: 'Bob Example',
  password: 'bob-password',
  roles: [],
};

export interface TestDirectoryEmulator {
  /** `http://127.0.0.1:<port>`; Graph base is `${url}/v1.0`. */
  url: string;
  tenant: string;
  /** Has every permission. */
  app: { clientId: string; clientSecret: string };
  user: { id: string; userPrincipalName: string; password: string };
  dataDir: string;
  emulator: RunningDirectoryEmulator;
  /** Moves the emulator's clock (ms) relative to real time: expires tokens without waiting. */
  shift(ms: number): void;
  /** Every delta/skip token issued so far answers 410 SyncStateNotFound afterwards. */
  evictSyncState(): void;
  setFaults(faults: FaultSettings): void;
  /** POSTs to the token endpoint (client credentials for `app` unless another form is given). */
  token(form?: Record<string, string>): Promise<string>;
  close(): Promise<void>;
}

export interface TestDirectoryEmulatorOptions {
  faults?: FaultSettings;
  /** Reuse a folder (a restart test); otherwise a temp folder removed on close. */
  dataDir?: string;
  tokenLifetimeSeconds?: number;
  /** Apps besides the full-permission test app (e.g. one with fewer permissions for 403 tests). */
  apps?: AppInput[];
  /** Users besides alice (bob is always there too). */
  users?: UserInput[];
  changeLogLimit?: number;
  /** The tenant's domain names (default: its users' domains and emulator.onmicrosoft.com). */
  domains?: string[];
  /** Seed the demo directory objects and events (default false: an empty calendar). */
  demoData?: boolean;
  port?: number;
}

export async function startTestDirectoryEmulator(options: TestDirectoryEmulatorOptions = {}): Promise<TestDirectoryEmulator> {
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), 'graph-emu-')));
  let offset = 0;
  const emulator = await createDirectoryEmulator({
    listen: `127.0.0.1:${options.port ?? 0}`,
    dataDir,
    tenant: TEST_TENANT,
    domains: options.domains,
    apps: [
      {
        client_id: TEST_CLIENT_ID,
        client_secret: TEST_CLIENT_SECRET,
        display_name: 'Relay Console tests',
        permissions: [...ALL_PERMISSIONS],
      },
      ...(options.apps ?? []),
    ],
    users: [TEST_USER, TEST_OTHER_USER, ...(options.users ?? [])],
    faults: options.faults,
    logger: createMemoryLogger('warn'),
    clock: () => Date.now() + offset,
    tokenLifetimeSeconds: options.tokenLifetimeSeconds,
    changeLogLimit: options.changeLogLimit,
    demoData: options.demoData ?? false,
  });
  const url = emulator.url;
  return {
    url,
    tenant: TEST_TENANT,
    app: { clientId: TEST_CLIENT_ID, clientSecret: TEST_CLIENT_SECRET },
    user: { id: TEST_USER.id, userPrincipalName: TEST_USER.userPrincipalName, password: TEST_USER.password },
    dataDir,
    emulator,
    shift: (ms) => {
      offset = ms;
    },
    evictSyncState: () => emulator.evictSyncState(),
    setFaults: (faults) => emulator.setFaults(faults),
    token: async (form) => {
      const body = new URLSearchParams(
        form ?? {
          grant_type: 'client_credentials',
          client_id: TEST_CLIENT_ID,
          client_secret: TEST_CLIENT_SECRET,
          scope: 'https://graph.microsoft.com/.default',
        },
      );
      const response = await fetch(`${url}/${TEST_TENANT}/oauth2/v2.0/token`, { method: 'POST', body });
      const json = (await response.json()) as { access_token?: string; error_description?: string };
      if (!response.ok || !json.access_token)
        throw new Error(`token request failed (${response.status}): ${json.error_description ?? 'no token'}`);
      return json.access_token;
    },
    close: async () => {
      await emulator.close();
      if (!options.dataDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** A user token for alice (password grant) with all the test app's permissions. */
export function userTokenForm(
  user: { userPrincipalName: string; password: string } = TEST_USER,
  scope = 'https://graph.microsoft.com/.default',
): Record<string, string> {
  return {
    grant_type: 'password',
    client_id: TEST_CLIENT_ID,
    client_secret: TEST_CLIENT_SECRET,
    username: user.userPrincipalName,
    password: user.password,
    scope,
  };
}

export interface GraphReply {
  status: number;
  headers: Headers;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read arbitrary Graph JSON
  body: any;
}

/** One Graph call over real HTTP: `path` is relative to /v1.0 (or an absolute next/delta link). */
export async function graphCall(
  url: string,
  token: string | null,
  path: string,
  init: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<GraphReply> {
  const target = path.startsWith('http') ? path : `${url}/v1.0${path.startsWith('/') ? '' : '/'}${path}`;
  const response = await fetch(target, {
    method: init.method ?? 'GET',
    headers: {
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
      ...(init.body !== undefined ? { 'Content-Type': 'application/json' } : {}),
      ...init.headers,
    },
    ...(init.body !== undefined ? { body: typeof init.body === 'string' ? init.body : JSON.stringify(init.body) } : {}),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
}
