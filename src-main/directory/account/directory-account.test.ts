import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SignInStatus } from '@shared/contract/directory-accounts';
import { writeFileAtomic } from '../../platform/atomic-write';
import { startTestEngine } from '../../engine/test-engine';
import { demoAccountPath } from '../directory-connection';
import { directoryModule } from '../directory-module';
import { DEMO_IDS } from '../emulator/demo-data';
import {
  startTestDirectoryEmulator,
  TEST_CLIENT_ID,
  TEST_CLIENT_SECRET,
  TEST_TENANT,
  TEST_USER,
  type TestDirectoryEmulator,
} from '../emulator/test-support';

// The directoryAccount service in a running engine, against the Graph emulator over HTTP.
let emu: TestDirectoryEmulator;
let dataDir: string;
beforeAll(async () => {
  emu = await startTestDirectoryEmulator({ demoData: true });
  dataDir = await mkdtemp(join(tmpdir(), 'directory-account-'));
  await writeFileAtomic(
    demoAccountPath(dataDir),
    JSON.stringify({ tenant: emu.tenant, client_id: emu.app.clientId, client_secret: emu.app.clientSecret, user: emu.user }),
  );
});
afterAll(async () => {
  await emu?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

const base = () => `data_dir: ${JSON.stringify(dataDir)}\napi:\n  listen: 127.0.0.1:0\nlog:\n  level: warn\n`;

describe('directory account', () => {
  it('says who is signed in to the emulator, signs out (holding every call) and back in', async () => {
    const running = await startTestEngine({
      modules: [directoryModule],
      config: `${base()}directory:\n  emulator:\n    listen: ${emu.url.replace('http://', '')}\n`,
    });
    try {
      const { services } = running.engine;
      const heard: SignInStatus[] = [];
      services.subscribe('directoryAccount', 'onStatus', (status) => heard.push(status as SignInStatus));
      const status = await services.call('directoryAccount', 'status', undefined);
      expect(status).toMatchObject({
        ok: true,
        value: {
          state: 'signedIn',
          connection: {
            mode: 'emulator',
            tenant: TEST_TENANT,
            clientId: TEST_CLIENT_ID,
            signIn: 'password',
            graphBaseUrl: `${emu.url}/v1.0`,
          },
          user: { displayName: TEST_USER.displayName, userPrincipalName: TEST_USER.userPrincipalName },
          appOnly: false,
        },
      });
      const value = (status as { value: SignInStatus }).value;
      expect(value.scopes).toContain('EntitlementManagement.ReadWrite.All');
      expect(Date.parse(value.expiresAt!)).toBeGreaterThan(Date.now() + 30 * 60_000);

      expect(await services.call('directoryAccount', 'signOut', undefined)).toMatchObject({
        ok: true,
        value: { state: 'signedOut', user: null },
      });
      expect(await services.call('directoryPolicies', 'get', { policyId: DEMO_IDS.policy })).toMatchObject({
        ok: false,
        error: { code: 'unauthenticated', message: 'signed out of the directory: sign in again in Settings' },
      });

      await services.call('directoryAccount', 'signIn', undefined);
      await expect.poll(() => heard.at(-1)?.state).toBe('signedIn');
      expect(await services.call('directoryPolicies', 'get', { policyId: DEMO_IDS.policy })).toMatchObject({
        ok: true,
        value: { id: DEMO_IDS.policy },
      });
    } finally {
      await running.stop();
    }
  });

  it('shows app-only access of a tenant configured with a client secret', async () => {
    const graph = `directory:\n  graph:\n    tenant: ${TEST_TENANT}\n    client_id: ${TEST_CLIENT_ID}\n    client_secret: ${TEST_CLIENT_SECRET}\n    base_url: ${emu.url}/v1.0\n    authority_host: ${emu.url}\n`;
    const running = await startTestEngine({ modules: [directoryModule], config: `${base()}${graph}` });
    try {
      const status = await running.engine.services.call('directoryAccount', 'status', undefined);
      expect(status).toMatchObject({
        ok: true,
        value: { state: 'signedIn', appOnly: true, user: null, connection: { mode: 'graph', signIn: 'clientCredentials' } },
      });
      expect((status as { value: SignInStatus }).value.scopes).toContain('Calendars.Read');
    } finally {
      await running.stop();
    }
  });

  it('reports a connection that cannot open as an error, in words', async () => {
    const running = await startTestEngine({ modules: [directoryModule], config: `${base()}directory:\n  emulator:\n    enabled: false\n` });
    try {
      const status = await running.engine.services.call('directoryAccount', 'status', undefined);
      expect(status).toMatchObject({
        ok: true,
        value: { state: 'error', connection: null, error: expect.stringContaining('no directory to talk to') },
      });
    } finally {
      await running.stop();
    }
  });
});
