import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileAtomic } from '../platform/atomic-write';
import { startTestEngine } from '../engine/test-engine';
import { demoAccountPath } from './directory-connection';
import { createDirectoryModule, directoryModule } from './directory-module';
import { DEMO_IDS } from './emulator/demo-data';
import { directoryEmulatorModule } from './emulator/directory-emulator-module';
import { startTestDirectoryEmulator, type TestDirectoryEmulator } from './emulator/test-support';
import { fullPolicyBody } from '../../src-shared/directory/policy-fixtures';

let emu: TestDirectoryEmulator;
let dataDir: string;
beforeAll(async () => {
  emu = await startTestDirectoryEmulator();
  dataDir = await mkdtemp(join(tmpdir(), 'directory-module-'));
  await writeFileAtomic(
    demoAccountPath(dataDir),
    JSON.stringify({ tenant: emu.tenant, client_id: emu.app.clientId, client_secret: emu.app.clientSecret, user: emu.user }),
  );
});
afterAll(async () => {
  await emu?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

const configFor = (listen: string) =>
  `data_dir: ${JSON.stringify(dataDir)}\napi:\n  listen: 127.0.0.1:0\nlog:\n  level: warn\ndirectory:\n  emulator:\n    listen: ${listen}\n`;

describe('directory module', () => {
  it('binds the three services; validate needs no network, the others reach the emulator', async () => {
    const running = await startTestEngine({ modules: [directoryModule], config: configFor(emu.url.replace('http://', '')) });
    try {
      const { services } = running.engine;
      expect(await services.call('directoryPolicies', 'validate', { policy: fullPolicyBody() })).toEqual({
        ok: true,
        value: { problems: [] },
      });
      const invalid = await services.call('directoryPolicies', 'update', { policyId: 'p1', policy: { displayName: 'x' } });
      expect(invalid).toMatchObject({ ok: false, error: { code: 'invalid_input', details: { problems: expect.any(Array) } } });

      // A Graph failure comes back as a value with Graph's code and message.
      const missing = await services.call('directoryRoles', 'get', {
        administrativeUnitId: '00000000-0000-4000-8000-000000000000',
        membershipId: 'nobody',
      });
      expect(missing).toMatchObject({
        ok: false,
        error: { code: 'not_found', details: { graph: { status: 404, code: 'Request_ResourceNotFound' } } },
      });
      if (!missing.ok) expect(missing.error.message).toBe((missing.error.details as { graph: { message: string } }).graph.message);
      // Bad input is refused by the contract before any call.
      const bad = await services.call('directoryAssignments', 'get', { assignmentId: 'a1', select: ['state;drop'] });
      expect(bad).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    } finally {
      await running.stop();
    }
  });

  it('works with the embedded emulator module on a random port and the demo account it writes', async () => {
    const running = await startTestEngine({
      modules: [directoryEmulatorModule, directoryModule],
      config: `data_dir: ./data\napi:\n  listen: 127.0.0.1:0\nlog:\n  level: warn\ndirectory:\n  emulator:\n    listen: 127.0.0.1:0\n`,
    });
    try {
      const policy = await running.engine.services.call('directoryPolicies', 'get', { policyId: DEMO_IDS.policy });
      expect(policy).toMatchObject({ ok: true, value: { id: DEMO_IDS.policy, accessPackage: { id: DEMO_IDS.accessPackage } } });
      const assignment = await running.engine.services.call('directoryAssignments', 'get', {
        assignmentId: DEMO_IDS.assignment,
        expand: ['target'],
        select: ['state'],
      });
      expect(assignment).toMatchObject({
        ok: true,
        value: { id: DEMO_IDS.assignment, state: 'delivered', target: { principalName: expect.any(String) } },
      });

      // The calendar sync runs on the same connection settings: a full round copies the demo week.
      const started = await running.engine.services.call('calendarSync', 'start', { pageSize: 5 });
      expect(started).toMatchObject({ ok: true });
      const synced = await running.engine.services.call('calendarSync', 'syncNow', undefined);
      expect(synced).toMatchObject({ ok: true, value: { lastError: null, eventsStored: expect.any(Number) } });
      if (synced.ok) expect((synced.value as { eventsStored: number }).eventsStored).toBeGreaterThan(3);
    } finally {
      await running.stop();
    }
  });

  it('reaches an emulator on port 0 at the port it got, with the apps and users of the config (no demo file)', async () => {
    const running = await startTestEngine({
      modules: [directoryEmulatorModule, directoryModule],
      config: [
        'data_dir: ./data',
        'api:\n  listen: 127.0.0.1:0',
        'log:\n  level: warn',
        'directory:',
        '  emulator:',
        '    listen: 127.0.0.1:0',
        '    tenant: 0f0e0d0c-0000-4000-8000-00000000abcd',
        '    apps:\n      - client_id: 5a5a5a5a-0000-4000-8000-000000000001\n        client_secret: s3cret-of-the-app',
        '    users:\n      - userPrincipalName: ops@contoso.test\n        password: pass-of-ops\n        displayName: Ops Person',
        '',
      ].join('\n'),
    });
    try {
      const status = await running.engine.services.call('directoryAccount', 'status', undefined);
      expect(status).toMatchObject({
        ok: true,
        value: {
          state: 'signedIn',
          user: { userPrincipalName: 'ops@contoso.test' },
          connection: { tenant: '0f0e0d0c-0000-4000-8000-00000000abcd' },
        },
      });
      if (status.ok) expect((status.value as { connection: { graphBaseUrl: string } }).connection.graphBaseUrl).not.toContain(':0/');
    } finally {
      await running.stop();
    }
  });

  it('answers unavailable when the emulator cannot be reached, and stays up', async () => {
    const running = await startTestEngine({
      modules: [createDirectoryModule({})],
      config: configFor('127.0.0.1:9'), // discard port: nothing listens
    });
    try {
      const result = await running.engine.services.call('directoryAssignments', 'get', { assignmentId: 'a1' });
      expect(result).toMatchObject({ ok: false, error: { code: 'unavailable', details: { graph: { code: 'networkError' } } } });
    } finally {
      await running.stop();
    }
  }, 60_000);

  it('refuses a malformed directory section at start, naming the key', async () => {
    await expect(startTestEngine({ modules: [directoryModule], config: 'directory:\n  graph:\n    tenant: x\n' })).rejects.toThrow(
      /directory\.graph\.client_id/,
    );
  });
});
