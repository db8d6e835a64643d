import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { writeFileAtomic } from '../platform/atomic-write';
import { createMemoryLogger } from '../platform/logger';
import { sendJson, startRecordingServer, type RecordingServer } from './client/recording-server';
import {
  demoAccountPath,
  DirectoryConfigError,
  emulatorOrigin,
  openDirectoryConnection,
  parseDirectorySection,
} from './directory-connection';
import { startTestDirectoryEmulator, type TestDirectoryEmulator } from './emulator/test-support';

let emu: TestDirectoryEmulator;
let dataDir: string;
beforeAll(async () => {
  emu = await startTestDirectoryEmulator();
});
afterAll(async () => {
  await emu?.close();
});
afterEach(async () => {
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

async function dataDirWithDemoAccount(extra: Record<string, unknown> = {}): Promise<string> {
  dataDir = await mkdtemp(join(tmpdir(), 'directory-connection-'));
  const demo = { tenant: emu.tenant, client_id: emu.app.clientId, client_secret: emu.app.clientSecret, user: { ...emu.user }, ...extra };
  await writeFileAtomic(demoAccountPath(dataDir), JSON.stringify(demo));
  return dataDir;
}

const listenOf = (url: string) => url.replace('http://', '');

describe('directory connection', () => {
  it('defaults to the emulator and signs in as its demo user', async () => {
    const dir = await dataDirWithDemoAccount();
    const connection = await openDirectoryConnection({
      section: { emulator: { listen: listenOf(emu.url) } },
      dataDir: dir,
      logger: createMemoryLogger(),
    });
    expect(connection.mode).toBe('emulator');
    expect(connection.client.baseUrl).toBe(`${emu.url}/v1.0`);
    const me = await connection.client.request<{ userPrincipalName: string }>({ path: '/me' });
    expect(me.body.userPrincipalName).toBe(emu.user.userPrincipalName);
  });

  it('prefers the url the demo account names (an emulator on a random port)', async () => {
    const dir = await dataDirWithDemoAccount({ url: emu.url });
    const connection = await openDirectoryConnection({ section: undefined, dataDir: dir, logger: createMemoryLogger() });
    expect(connection.client.baseUrl).toBe(`${emu.url}/v1.0`);
    expect((await connection.client.request({ path: '/me' })).status).toBe(200);
  });

  it('signs in with the first app and user the emulator config names, without a demo file', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'directory-connection-'));
    const section = {
      emulator: {
        listen: listenOf(emu.url),
        tenant: emu.tenant,
        apps: [{ client_id: emu.app.clientId, client_secret: emu.app.clientSecret }],
        users: [{ userPrincipalName: emu.user.userPrincipalName, password: emu.user.password, displayName: 'Alice' }],
      },
    };
    const connection = await openDirectoryConnection({ section, dataDir, logger: createMemoryLogger() });
    expect((await connection.client.request<{ id: string }>({ path: '/me' })).body.id).toBe(emu.user.id);
  });

  it('says what is missing when there is no demo account or no directory at all', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'directory-connection-'));
    await expect(openDirectoryConnection({ section: {}, dataDir, logger: createMemoryLogger() })).rejects.toThrow(
      /has not written its demo account yet/,
    );
    await expect(
      openDirectoryConnection({ section: { emulator: { enabled: false } }, dataDir, logger: createMemoryLogger() }),
    ).rejects.toThrow(DirectoryConfigError);
  });

  it('uses client credentials for a tenant configured with a secret', async () => {
    const login: RecordingServer = await startRecordingServer((_req, res) =>
      sendJson(res, 200, { token_type: 'Bearer', expires_in: 3600, access_token: 'app-token' }),
    );
    const graph: RecordingServer = await startRecordingServer((_req, res) => sendJson(res, 200, { id: 'x' }));
    try {
      dataDir = await mkdtemp(join(tmpdir(), 'directory-connection-'));
      const connection = await openDirectoryConnection({
        section: {
          graph: {
            tenant: 'contoso.example',
            client_id: 'app-1',
            client_secret: 's',
            authority_host: login.url,
            base_url: `${graph.url}/v1.0`,
          },
        },
        dataDir,
        logger: createMemoryLogger(),
      });
      expect(connection.mode).toBe('graph');
      expect(connection.signIn).toBeUndefined();
      await connection.client.request({ path: '/directory/administrativeUnits/a/scopedRoleMembers/b' });
      expect(login.requests[0]?.url).toBe('/contoso.example/oauth2/v2.0/token');
      expect(new URLSearchParams(login.requests[0]?.body).get('grant_type')).toBe('client_credentials');
      expect(graph.requests[0]?.headers.authorization).toBe('Bearer app-token');
    } finally {
      await Promise.all([login.close(), graph.close()]);
    }
  });

  it('signs a user in through the browser for a tenant without secret', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'directory-connection-'));
    const connection = await openDirectoryConnection({ section: { graph: { client_id: 'app-1' } }, dataDir, logger: createMemoryLogger() });
    expect(connection.mode).toBe('graph');
    expect(connection.client.baseUrl).toBe('https://graph.microsoft.com/v1.0');
    expect(connection.signIn).toBeDefined();
    expect(await connection.signIn!.account()).toBeNull();
  });

  it('names the key of a wrong setting', () => {
    expect(() => parseDirectorySection({ graph: { tenant: 'x' } })).toThrow(/directory\.graph\.client_id/);
    expect(() => parseDirectorySection({ emulator: { listen: 'nowhere' } })).toThrow(/directory\.emulator\.listen/);
    expect(() => parseDirectorySection({ graph: { client_id: 'a', username: 'u' } })).toThrow(/username and password go together/);
    expect(parseDirectorySection(undefined).emulator).toEqual({ enabled: true, listen: '127.0.0.1:1986' });
    expect(emulatorOrigin('0.0.0.0:1986')).toBe('http://127.0.0.1:1986');
    expect(emulatorOrigin('[::1]:1986')).toBe('http://[::1]:1986');
  });
});
