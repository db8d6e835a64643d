import { access, copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DirectoryConnectionEntry, NewTenant, SignInStatus } from '@shared/contract/directory-accounts';
import type { CalendarSyncStatus } from '@shared/contract/directory';
import { writeFileAtomic } from '../../platform/atomic-write';
import { startTestEngine } from '../../engine/test-engine';
import { demoAccountPath } from '../directory-connection';
import { directoryModule } from '../directory-module';
import { DEMO_IDS } from '../emulator/demo-data';
import { startTestDirectoryEmulator, type TestDirectoryEmulator } from '../emulator/test-support';

// Adding a tenant in Settings, switching to it and back, and removing it: a running engine
// against the Graph emulator over HTTP, with the emulator standing in for a real tenant reached
// with client credentials.
let emu: TestDirectoryEmulator;
let dataDir: string;
beforeAll(async () => {
  emu = await startTestDirectoryEmulator({ demoData: true });
  dataDir = await mkdtemp(join(tmpdir(), 'directory-switch-'));
  await writeFileAtomic(
    demoAccountPath(dataDir),
    JSON.stringify({ tenant: emu.tenant, client_id: emu.app.clientId, client_secret: emu.app.clientSecret, user: emu.user }),
  );
});
afterAll(async () => {
  await emu?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );
const value = <T>(result: { ok: boolean; value?: unknown; error?: unknown }): T => {
  if (!result.ok) throw new Error(`call failed: ${JSON.stringify(result.error)}`);
  return result.value as T;
};

describe('directory connections', () => {
  it('adds a client-credentials tenant (secret sealed, tried first), switches the pages and the calendar copy to it and back, and removes it', async () => {
    const running = await startTestEngine({
      modules: [directoryModule],
      config: `data_dir: ${JSON.stringify(dataDir)}\napi:\n  listen: 127.0.0.1:0\nlog:\n  level: warn\ndirectory:\n  emulator:\n    listen: ${emu.url.replace('http://', '')}\n`,
    });
    const { services } = running.engine;
    const call = <T>(service: string, name: string, input?: unknown) => services.call(service, name, input).then(value<T>);
    try {
      const initial = await call<DirectoryConnectionEntry[]>('directoryAccount', 'connections');
      expect(initial).toEqual([
        {
          id: 'config',
          name: 'Built-in Graph emulator',
          source: 'config',
          active: true,
          info: expect.objectContaining({ mode: 'emulator', signIn: 'password' }),
          problem: null,
        },
      ]);

      // The config connection's calendar copy: the demo week, kept when another connection is in use.
      await call('calendarSync', 'start', { pageSize: 5 });
      const configCopy = await call<CalendarSyncStatus>('calendarSync', 'syncNow');
      expect(configCopy.eventsStored).toBeGreaterThan(3);

      const tenant: NewTenant = {
        name: 'Contoso (app)',
        tenant: emu.tenant,
        clientId: emu.app.clientId,
        signIn: 'clientCredentials',
        clientSecret: 'not-the-secret',
        authorityHost: emu.url,
        graphBaseUrl: `${emu.url}/v1.0`,
      };
      const refused = await services.call('directoryAccount', 'addTenant', tenant);
      expect(refused).toMatchObject({
        ok: false,
        error: {
          code: 'invalid_input',
          message: expect.stringMatching(/^the tenant was not added: no app-only token with this application and secret: AADSTS7000215/),
        },
      });
      expect(await exists(join(dataDir, 'directory', 'tenants.json'))).toBe(false);

      const heard: SignInStatus[] = [];
      services.subscribe('directoryAccount', 'onStatus', (status) => heard.push(status as SignInStatus));
      const added = await call<DirectoryConnectionEntry>('directoryAccount', 'addTenant', {
        ...tenant,
        clientSecret: emu.app.clientSecret,
      });
      expect(added).toMatchObject({
        name: 'Contoso (app)',
        source: 'added',
        active: true,
        info: { mode: 'graph', signIn: 'clientCredentials', tenant: emu.tenant },
      });
      // The secret is sealed: neither the tenants file nor the sealed file shows it.
      const tenantsFile = await readFile(join(dataDir, 'directory', 'tenants.json'), 'utf8');
      expect(JSON.parse(tenantsFile).tenants).toEqual([
        {
          id: added.id,
          name: 'Contoso (app)',
          tenant: emu.tenant,
          clientId: emu.app.clientId,
          signIn: 'clientCredentials',
          authorityHost: emu.url,
          graphBaseUrl: `${emu.url}/v1.0`,
        },
      ]);
      expect(tenantsFile).not.toContain(emu.app.clientSecret);
      expect((await readFile(join(dataDir, 'directory', 'tenant-secrets.sealed'))).includes(emu.app.clientSecret)).toBe(false);
      expect(heard.at(-1)).toMatchObject({ connection: { mode: 'graph', signIn: 'clientCredentials' } });

      const status = await call<SignInStatus>('directoryAccount', 'status');
      expect(status).toMatchObject({
        state: 'signedIn',
        appOnly: true,
        user: null,
        connection: { mode: 'graph', clientId: emu.app.clientId },
      });
      expect(status.scopes).toContain('EntitlementManagement.ReadWrite.All');
      const packages = await call<{ id: string }[]>('directoryPackages', 'packages');
      expect(packages.map((p) => p.id)).toContain(DEMO_IDS.accessPackage);
      expect((await call<DirectoryConnectionEntry[]>('directoryAccount', 'connections')).map((c) => [c.name, c.active])).toEqual([
        ['Built-in Graph emulator', false],
        ['Contoso (app)', true],
      ]);
      // The tenant has a calendar copy of its own, empty until it is started.
      expect(await call<CalendarSyncStatus>('calendarSync', 'status')).toMatchObject({ state: 'stopped', target: null, eventsStored: 0 });
      const again = await services.call('directoryAccount', 'addTenant', { ...tenant, clientSecret: emu.app.clientSecret });
      expect(again).toMatchObject({ ok: false, error: { code: 'conflict' } });

      // Back to the emulator: its copy is there and running again.
      expect(await call<SignInStatus>('directoryAccount', 'useConnection', { id: 'config' })).toMatchObject({
        state: 'signedIn',
        connection: { mode: 'emulator' },
      });
      expect(await call<CalendarSyncStatus>('calendarSync', 'status')).toMatchObject({
        target: { user: 'me' },
        eventsStored: configCopy.eventsStored,
      });

      // Removing the tenant in use falls back to the config's connection and forgets everything kept for it.
      await call('directoryAccount', 'useConnection', { id: added.id });
      await call('directoryAccount', 'removeTenant', { id: added.id });
      expect((await call<DirectoryConnectionEntry[]>('directoryAccount', 'connections')).map((c) => [c.id, c.active])).toEqual([
        ['config', true],
      ]);
      expect(await exists(join(dataDir, 'directory', 'tenants', added.id))).toBe(false);
      expect(JSON.parse(await readFile(join(dataDir, 'directory', 'tenants.json'), 'utf8')).tenants).toEqual([]);
      expect(await services.call('directoryAccount', 'removeTenant', { id: 'config' })).toMatchObject({
        ok: false,
        error: { code: 'invalid_input' },
      });
      expect(await services.call('directoryAccount', 'useConnection', { id: added.id })).toMatchObject({
        ok: false,
        error: { code: 'not_found' },
      });
    } finally {
      await running.stop();
    }
  });

  it('keeps a tenant on https with the CA file it names, and reaches its Graph and calendar through it; a file that is no CA is refused at its field', async () => {
    // The engine's data folder is not the emulator's: its CA is a stranger here, as a corporate proxy's would be.
    const caDir = await mkdtemp(join(tmpdir(), 'tenant-ca-'));
    const running = await startTestEngine({
      modules: [directoryModule],
      config: `data_dir: ${JSON.stringify(dataDir)}\napi:\n  listen: 127.0.0.1:0\nlog:\n  level: warn\ndirectory:\n  emulator:\n    listen: ${emu.url.replace('http://', '')}\n`,
    });
    const { services } = running.engine;
    const call = <T>(service: string, name: string, input?: unknown) => services.call(service, name, input).then(value<T>);
    try {
      const caFile = join(caDir, 'corporate-ca.pem');
      await copyFile(join(emu.dataDir, 'directory', 'tls', 'ca.pem'), caFile);
      const notPem = join(caDir, 'notes.txt');
      await writeFile(notPem, 'not a certificate\n');
      const origin = `https://localhost:${emu.emulator.port}`;
      const tenant: NewTenant = {
        name: 'Behind a proxy',
        tenant: emu.tenant,
        clientId: emu.app.clientId,
        signIn: 'clientCredentials',
        clientSecret: emu.app.clientSecret,
        authorityHost: origin,
        graphBaseUrl: `${origin}/v1.0`,
      };

      expect(await services.call('directoryAccount', 'addTenant', { ...tenant, caFile: join(caDir, 'missing.pem') })).toMatchObject({
        ok: false,
        error: {
          code: 'invalid_input',
          details: {
            problems: [
              { path: 'caFile', code: 'unreadable', message: expect.stringMatching(/^cannot read .*missing\.pem: no such file$/) },
            ],
          },
        },
      });
      expect(await services.call('directoryAccount', 'addTenant', { ...tenant, caFile: notPem })).toMatchObject({
        ok: false,
        error: {
          code: 'invalid_input',
          details: { problems: [{ path: 'caFile', code: 'notPem', message: expect.stringContaining('is not a PEM certificate') }] },
        },
      });
      // Without the CA the emulator's certificate is refused (the secret is tried first, over https).
      expect(await services.call('directoryAccount', 'addTenant', tenant)).toMatchObject({
        ok: false,
        error: { message: expect.stringContaining('self-signed certificate in certificate chain') },
      });
      expect((await call<DirectoryConnectionEntry[]>('directoryAccount', 'connections')).map((c) => c.id)).toEqual(['config']);

      const added = await call<DirectoryConnectionEntry>('directoryAccount', 'addTenant', { ...tenant, caFile });
      const stored = JSON.parse(await readFile(join(dataDir, 'directory', 'tenants.json'), 'utf8')).tenants;
      expect(stored).toEqual([expect.objectContaining({ id: added.id, caFile })]);
      expect((await call<{ id: string }[]>('directoryPackages', 'packages')).map((p) => p.id)).toContain(DEMO_IDS.accessPackage);
      await call('calendarSync', 'start', { user: emu.user.id, pageSize: 5 });
      expect(await call<CalendarSyncStatus>('calendarSync', 'syncNow')).toMatchObject({ state: 'idle', lastError: null, rounds: 1 });
      await call('directoryAccount', 'removeTenant', { id: added.id });
    } finally {
      await running.stop();
      await rm(caDir, { recursive: true, force: true });
    }
  });

  it('refuses a tenant the shared schema refuses, naming the field', async () => {
    const running = await startTestEngine({
      modules: [directoryModule],
      config: `data_dir: ${JSON.stringify(dataDir)}\napi:\n  listen: 127.0.0.1:0\nlog:\n  level: warn\n`,
    });
    try {
      const result = await running.engine.services.call('directoryAccount', 'addTenant', {
        name: '',
        tenant: 'organizations',
        clientId: 'not-a-guid',
        signIn: 'clientCredentials',
        clientSecret: '',
        authorityHost: 'http://login.example.com',
        graphBaseUrl: 'https://graph.microsoft.com/v1.0',
      });
      expect(result).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
      const text = JSON.stringify(result);
      for (const field of ['clientId', 'clientSecret', 'tenant', 'authorityHost']) expect(text).toContain(field);
    } finally {
      await running.stop();
    }
  });
});
