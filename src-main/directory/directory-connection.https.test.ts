import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryLogger } from '../platform/logger';
import { calendarClient } from './calendar/calendar-graph-client';
import { CalendarStore } from './calendar/calendar-store';
import { createCalendarSyncEngine } from './calendar/calendar-sync-engine';
import { calendarWriter, recordingClient } from './calendar/emulator-test-client';
import type { GraphCollection } from './client/graph-client';
import { DirectoryConfigError, openDirectoryConnection, type DirectoryConnection } from './directory-connection';
import { startTestDirectoryEmulator, type TestDirectoryEmulator } from './emulator/test-support';

// The emulator added as a tenant by its https address, as a person adds it in Settings: msal
// signs in, and the directory pages and the calendar sync reach Graph over the same https,
// trusting the same CAs (the console's own emulators' for a loopback host, and a CA file the
// person names). The emulator makes its CA in <its data dir>/directory/tls/ca.pem.
let emu: TestDirectoryEmulator;
let work: string;
beforeAll(async () => {
  emu = await startTestDirectoryEmulator({ demoData: true });
  work = await mkdtemp(join(tmpdir(), 'directory-https-'));
});
afterAll(async () => {
  await emu?.close();
  await rm(work, { recursive: true, force: true });
});

const POLICIES = '/identityGovernance/entitlementManagement/assignmentPolicies';
const WINDOW = { start: '2031-05-01T00:00:00Z', end: '2031-06-01T00:00:00Z' };

/** The section a tenant added in Settings opens with: the emulator's https address, device code sign-in. */
const tenantSection = (extra: Record<string, unknown> = {}) => {
  const origin = `https://localhost:${emu.emulator.port}`;
  return {
    graph: {
      tenant: emu.tenant,
      client_id: emu.app.clientId,
      authority_host: origin,
      base_url: `${origin}/v1.0`,
      sign_in: 'device_code',
      ...extra,
    },
  };
};

/** Opens the connection and signs in with a device code typed "on another device" (the emulator's page). */
async function openAndSignIn(dataDir: string, section: unknown): Promise<DirectoryConnection> {
  const cacheDir = await mkdtemp(join(work, 'cache-'));
  const connection = await openDirectoryConnection({
    section,
    dataDir,
    cacheDir,
    logger: createMemoryLogger('error'),
    onDeviceCode: (code) => {
      void fetch(`${emu.url}/devicelogin`, {
        method: 'POST',
        body: new URLSearchParams({ otc: code.userCode, username: emu.user.userPrincipalName, password: emu.user.password }),
      });
    },
  });
  await connection.tokens.getToken();
  return connection;
}

async function syncOnce(connection: DirectoryConnection) {
  const store = new CalendarStore(join(await mkdtemp(join(work, 'calendar-')), 'calendar.sqlite'));
  const sync = createCalendarSyncEngine({
    client: calendarClient(
      async () => connection,
      () => undefined,
      () => undefined,
    ),
    store,
    logger: createMemoryLogger('error'),
  });
  try {
    await sync.start({ user: 'me', start: WINDOW.start, end: WINDOW.end, intervalSeconds: 3600 });
    const status = await sync.syncNow();
    return { status, subjects: sync.eventsInRange(WINDOW.start, WINDOW.end).map((event) => event.subject) };
  } finally {
    await sync.close();
    store.close();
  }
}

describe('a tenant on https', () => {
  it('trusts the CA of the console’s own Graph emulator: sign-in, the policies and a calendar sync all work', async () => {
    await calendarWriter(recordingClient(emu).client, emu.user.id).create({
      subject: 'over https',
      start: '2031-05-02T09:00:00',
      end: '2031-05-02T10:00:00',
    });
    // The console's data folder is the emulator's: its CA is where the console's emulator writes it.
    const connection = await openAndSignIn(emu.dataDir, tenantSection());
    expect(connection.client.baseUrl).toBe(`https://localhost:${emu.emulator.port}/v1.0`);

    const policies = await connection.client.request<GraphCollection<{ id: string; displayName: string }>>({ path: POLICIES });
    expect(policies.status).toBe(200);
    expect(policies.body.value.length).toBeGreaterThan(0);

    const { status, subjects } = await syncOnce(connection);
    expect(status.lastError).toBeNull();
    expect(status).toMatchObject({ state: 'idle', rounds: 1 });
    expect(subjects).toContain('over https');
  });

  it('trusts a CA file the person names for the tenant, and without it refuses the certificate', async () => {
    // Another data folder: the emulator's CA is not one of the console's own here, as a
    // corporate proxy's CA would not be.
    const elsewhere = await mkdtemp(join(work, 'data-'));
    const caFile = join(elsewhere, 'corporate-ca.pem');
    await copyFile(join(emu.dataDir, 'directory', 'tls', 'ca.pem'), caFile);

    const trusted = await openAndSignIn(elsewhere, tenantSection({ ca_file: caFile }));
    expect((await trusted.client.request({ path: POLICIES })).status).toBe(200);
    expect((await syncOnce(trusted)).status.lastError).toBeNull();

    const refused = await openDirectoryConnection({
      section: tenantSection({ sign_in: undefined, client_secret: emu.app.clientSecret }),
      dataDir: elsewhere,
      logger: createMemoryLogger('error'),
    });
    await expect(refused.client.request({ path: POLICIES })).rejects.toThrow(/self-signed certificate in certificate chain/);
  });

  it('says what is wrong with a CA file that cannot be read or holds no certificate', async () => {
    const dir = await mkdtemp(join(work, 'bad-'));
    await mkdir(join(dir, 'folder'));
    const notPem = join(dir, 'not-a-certificate.pem');
    await writeFile(notPem, 'hello\n');
    const open = (caFile: string) =>
      openDirectoryConnection({ section: tenantSection({ ca_file: caFile }), dataDir: dir, logger: createMemoryLogger('error') });
    await expect(open(join(dir, 'missing.pem'))).rejects.toThrow(DirectoryConfigError);
    await expect(open(join(dir, 'missing.pem'))).rejects.toThrow(
      /CA file \(directory\.graph\.ca_file\): cannot read .*missing\.pem: no such file/,
    );
    await expect(open(notPem)).rejects.toThrow(/CA file \(directory\.graph\.ca_file\): .*not-a-certificate\.pem is not a PEM certificate/);
  });
});
