import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphCall, startTestDirectoryEmulator, type TestDirectoryEmulator } from './test-support';

// Microsoft's JavaScript Graph client sends tokens only over https: with the emulator's local
// CA trusted (NODE_EXTRA_CA_CERTS, in a process of its own), baseUrl and customHosts (the hosts
// besides Graph's it gives a token to) set, it reads a calendar delta through PageIterator,
// following the emulator's links.
let emu: TestDirectoryEmulator;
beforeAll(async () => {
  emu = await startTestDirectoryEmulator();
  const token = await emu.token();
  for (let day = 1; day <= 7; day += 1) {
    const reply = await graphCall(emu.url, token, `/users/${emu.user.id}/events`, {
      method: 'POST',
      body: {
        subject: `standup ${day}`,
        start: { dateTime: `2031-05-0${day}T09:00:00`, timeZone: 'UTC' },
        end: { dateTime: `2031-05-0${day}T09:15:00`, timeZone: 'UTC' },
      },
    });
    expect(reply.status).toBe(201);
  }
});
afterAll(() => emu.close());

const graphClientPath = createRequire(import.meta.url).resolve('@microsoft/microsoft-graph-client');

const script = (origin: string, tenant: string, clientId: string, secret: string, userId: string) => `
const { Client, PageIterator } = require(${JSON.stringify(graphClientPath)});
(async () => {
  const form = new URLSearchParams({ grant_type: 'client_credentials', client_id: ${JSON.stringify(clientId)}, client_secret: ${JSON.stringify(secret)}, scope: 'https://graph.microsoft.com/.default' });
  const { access_token } = await (await fetch(${JSON.stringify(`${origin}/${tenant}/oauth2/v2.0/token`)}, { method: 'POST', body: form })).json();
  // customHosts: the client sends its token only to Graph's own hosts and the ones named here.
  const client = Client.init({ baseUrl: ${JSON.stringify(`${origin}/`)}, customHosts: new Set(['localhost']), authProvider: (done) => done(null, access_token) });
  const first = await client.api('/users/${userId}/calendarView/delta').query({ startDateTime: '2031-05-01T00:00:00Z', endDateTime: '2031-05-31T00:00:00Z' }).header('Prefer', 'odata.maxpagesize=2').get();
  const subjects = [];
  const iterator = new PageIterator(client, first, (event) => { subjects.push(event.subject); return true; }, { headers: { Prefer: 'odata.maxpagesize=2' } });
  await iterator.iterate();
  const deltaLink = iterator.getDeltaLink();
  const again = await client.api(deltaLink).get();
  const batch = await client.api('/$batch').post({ requests: [
    { id: 'me', method: 'GET', url: '/users/${userId}?$select=userPrincipalName' },
    { id: 'delta', method: 'GET', url: '/users/${userId}/calendarView/delta?startDateTime=2031-05-01T00:00:00Z&endDateTime=2031-05-31T00:00:00Z', headers: { Prefer: 'odata.maxpagesize=2' } },
  ] });
  // A batched delta's nextLink is followed as it stands, with the client's token.
  const batchedNext = batch.responses[1].body['@odata.nextLink'];
  const followed = await client.api(batchedNext).header('Prefer', 'odata.maxpagesize=2').get();
  console.log(JSON.stringify({ subjects: subjects.sort(), firstNext: first['@odata.nextLink'], deltaLink, changesSince: again.value.length, batch: batch.responses[0], batchedNext, followed: followed.value.length }));
})().catch((error) => { console.error(error); process.exit(1); });
`;

describe('the Graph JavaScript client over https', () => {
  it('pages through calendar delta with PageIterator and gets https links back', async () => {
    const origin = `https://localhost:${emu.emulator.port}`;
    const run = promisify(execFile);
    const { stdout } = await run(
      process.execPath,
      ['-e', script(origin, emu.tenant, emu.app.clientId, emu.app.clientSecret, emu.user.id)],
      {
        env: { ...process.env, NODE_EXTRA_CA_CERTS: join(emu.dataDir, 'directory', 'tls', 'ca.pem') },
        timeout: 60_000,
      },
    );
    const out = JSON.parse(stdout.trim().split('\n').at(-1)!) as {
      subjects: string[];
      firstNext: string;
      deltaLink: string;
      changesSince: number;
      batch: { status: number; body: Record<string, unknown> };
      batchedNext: string;
      followed: number;
    };
    expect(out.subjects).toEqual([1, 2, 3, 4, 5, 6, 7].map((day) => `standup ${day}`));
    expect(out.firstNext.startsWith(`${origin}/v1.0/users/`)).toBe(true);
    expect(out.deltaLink.startsWith(`${origin}/v1.0/users/`)).toBe(true);
    expect(out.changesSince).toBe(0);
    expect(out.batch).toMatchObject({ status: 200, body: { userPrincipalName: emu.user.userPrincipalName } });
    expect(out.batchedNext.startsWith(`${origin}/v1.0/users/`)).toBe(true);
    expect(out.followed).toBe(2);
  });
});
