import { spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startTestEngine } from '../../engine/test-engine';
import { DEMO_IDS } from './demo-data';
import { directoryEmulatorModule } from './directory-emulator-module';
import { graphCall } from './test-support';

interface DemoAccount {
  tenant: string;
  client_id: string;
  client_secret: string;
  user: { id: string; userPrincipalName: string; password: string };
}

async function demoToken(url: string, demo: DemoAccount): Promise<string> {
  const body = new URLSearchParams({
    grant_type: 'password',
    client_id: demo.client_id,
    username: demo.user.userPrincipalName,
    password: demo.user.password,
    scope: 'https://graph.microsoft.com/.default',
  });
  const reply = (await (await fetch(`${url}/${demo.tenant}/oauth2/v2.0/token`, { method: 'POST', body })).json()) as {
    access_token: string;
  };
  return reply.access_token;
}

describe('directoryEmulatorModule', () => {
  it('starts with demo credentials and demo data under data_dir, never logging the secrets', async () => {
    const test = await startTestEngine({
      modules: [directoryEmulatorModule],
      config: `data_dir: ./data\napi:\n  listen: 127.0.0.1:0\nlog:\n  level: info\ndirectory:\n  emulator:\n    listen: 127.0.0.1:0\n`,
    });
    try {
      const line = test.logLines.find((l) => l.includes('directory emulator listening'))!;
      const url = /"url":"(http:\/\/127\.0\.0\.1:\d+)"/.exec(line)![1]!;
      const demo = JSON.parse(await readFile(join(test.dir, 'data', 'directory', 'demo-account.json'), 'utf8')) as DemoAccount;
      const log = test.logLines.join('\n');
      expect(log).not.toContain(demo.client_secret);
      expect(log).not.toContain(demo.user.password);
      const token = await demoToken(url, demo);
      const assignment = await graphCall(
        url,
        token,
        `/identityGovernance/entitlementManagement/assignments/${DEMO_IDS.assignment}?$expand=target`,
      );
      expect(assignment.body).toMatchObject({ state: 'delivered', target: { objectId: demo.user.id } });
      const monday = new Date();
      monday.setUTCDate(monday.getUTCDate() - ((monday.getUTCDay() + 6) % 7));
      const start = monday.toISOString().slice(0, 10);
      const end = new Date(monday.getTime() + 7 * 86_400_000).toISOString().slice(0, 10);
      const week = await graphCall(url, token, `/me/calendarView/delta?startDateTime=${start}T00:00:00Z&endDateTime=${end}T00:00:00Z`, {
        headers: { Prefer: 'odata.maxpagesize=50' },
      });
      const subjects = (week.body.value as { subject: string; type: string }[]).map((e) => `${e.subject}:${e.type}`);
      expect(subjects.filter((s) => s === 'Team stand-up:occurrence')).toHaveLength(5);
      expect(subjects).toContain('Release day:singleInstance');
      // The console's policy editor saves as the demo user (a delegated token): they hold
      // Identity Governance Administrator, so the PUT is allowed.
      const current = await graphCall(url, token, `/identityGovernance/entitlementManagement/assignmentPolicies/${DEMO_IDS.policy}`);
      const {
        '@odata.context': _context,
        id: _id,
        createdDateTime: _created,
        modifiedDateTime: _modified,
        notificationSettings: _notifications,
        customExtensionStageSettings: _stages,
        ...editable
      } = current.body as Record<string, unknown>;
      const saved = await graphCall(url, token, `/identityGovernance/entitlementManagement/assignmentPolicies/${DEMO_IDS.policy}`, {
        method: 'PUT',
        body: { ...editable, displayName: 'Saved by the demo user', accessPackage: { id: DEMO_IDS.accessPackage } },
      });
      expect(saved.status).toBe(200);
      expect(saved.body.displayName).toBe('Saved by the demo user');
    } finally {
      await test.stop();
    }
  });

  it('a busy directory.emulator.listen is logged and the app still starts', async () => {
    const { createServer } = await import('node:net');
    const blocker = createServer();
    await new Promise<void>((done) => blocker.listen(0, '127.0.0.1', done));
    const port = (blocker.address() as { port: number }).port;
    try {
      const test = await startTestEngine({
        modules: [directoryEmulatorModule],
        config: `data_dir: ./data\napi:\n  listen: 127.0.0.1:0\ndirectory:\n  emulator:\n    listen: 127.0.0.1:${port}\n`,
      });
      try {
        expect(test.logLines.join('\n')).toMatch(/directory emulator not started: its address is in use/);
      } finally {
        await test.stop();
      }
    } finally {
      blocker.close();
    }
  });

  it('does not start with enabled: false, and a bad key fails start with its path', async () => {
    const off = await startTestEngine({
      modules: [directoryEmulatorModule],
      config: `data_dir: ./data\napi:\n  listen: 127.0.0.1:0\ndirectory:\n  emulator:\n    enabled: false\n`,
    });
    try {
      expect(off.logLines.join('\n')).not.toContain('directory emulator listening');
    } finally {
      await off.stop();
    }
    const bad = `data_dir: ./data\napi:\n  listen: 127.0.0.1:0\ndirectory:\n  emulator:\n    apps:\n      - client_id: a\n        client_secret: b\n        permissions: [Calendars.Reed]\n`;
    await expect(startTestEngine({ modules: [directoryEmulatorModule], config: bad })).rejects.toThrow(
      /directory\.emulator\.apps\.0\.permissions\.0/,
    );
  });

  it('the standalone entry lists its options for --help and -h and exits 0', async () => {
    for (const flag of ['--help', '-h']) {
      const child = spawn(
        process.execPath,
        [resolve('node_modules/vite-node/vite-node.mjs'), resolve(__dirname, 'main.directory-emulator.ts'), '--', flag],
        { stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let out = '';
      child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
      child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
      const code = await new Promise<number | null>((done) => child.once('exit', done));
      expect({ flag, code }).toEqual({ flag, code: 0 });
      expect(out).toMatch(/^Usage: npm run directory-emulator -- --config <file\.yaml>/);
      expect(out).toContain('-c, --config <file.yaml>');
      expect(out).toContain('-h, --help');
      expect(out).not.toContain('Unknown option');
    }
  }, 60_000);

  it('runs alone from the config file, keeps state and delta tokens across a restart, and stops on SIGTERM', async () => {
    const test = await startTestEngine({ modules: [] });
    try {
      const config = join(test.dir, 'graph.yaml');
      await writeFile(
        config,
        `data_dir: ./standalone\nlog:\n  level: warn\ndirectory:\n  emulator:\n    listen: 127.0.0.1:0\n    demo_data: false\n    tenant: 0a1b2c3d-0000-4000-a000-000000000001\n    apps:\n      - client_id: console\n        client_secret: console-secret\n    users:\n      - userPrincipalName: carol@emulator.test\n        password: carol-pass\n`,
      );
      const run = async (): Promise<{ url: string; stop: () => Promise<number | null> }> => {
        const child = spawn(
          process.execPath,
          [resolve('node_modules/vite-node/vite-node.mjs'), resolve(__dirname, 'main.directory-emulator.ts'), '--', '--config', config],
          { stdio: ['ignore', 'pipe', 'pipe'] },
        );
        const url = await new Promise<string>((ok, fail) => {
          let out = '';
          child.stdout!.on('data', (d: Buffer) => {
            out += d.toString();
            const m = /emulator at (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
            if (m) ok(m[1]!);
          });
          child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
          child.on('exit', (code) => fail(new Error(`exited ${code}: ${out}`)));
        });
        return { url, stop: () => new Promise((done) => (child.once('exit', (code) => done(code)), child.kill('SIGTERM'))) };
      };
      const form = {
        grant_type: 'password',
        client_id: 'console',
        client_secret: 'console-secret',
        username: 'carol@emulator.test',
        password: 'carol-pass',
        scope: 'Calendars.ReadWrite',
      };
      const token = async (url: string) =>
        (
          (await (
            await fetch(`${url}/0a1b2c3d-0000-4000-a000-000000000001/oauth2/v2.0/token`, {
              method: 'POST',
              body: new URLSearchParams(form),
            })
          ).json()) as { access_token: string }
        ).access_token;

      const first = await run();
      const t1 = await token(first.url);
      const window = 'startDateTime=2025-01-01T00:00:00Z&endDateTime=2025-02-01T00:00:00Z';
      const round = await graphCall(first.url, t1, `/me/calendarView/delta?${window}`);
      await graphCall(first.url, t1, '/me/events', {
        method: 'POST',
        body: {
          subject: 'kept',
          start: { dateTime: '2025-01-10T10:00:00', timeZone: 'UTC' },
          end: { dateTime: '2025-01-10T11:00:00', timeZone: 'UTC' },
        },
      });
      expect(await first.stop()).toBe(0);

      const second = await run();
      try {
        // The old deltaLink (rewritten to the new port) still works and holds the event.
        const link = (round.body['@odata.deltaLink'] as string).replace(/^http:\/\/[^/]+/, second.url);
        const next = await graphCall(second.url, await token(second.url), link);
        expect(next.body.value.map((e: { subject: string }) => e.subject)).toEqual(['kept']);
      } finally {
        expect(await second.stop()).toBe(0);
      }
    } finally {
      await test.stop();
    }
  }, 90_000);
});
