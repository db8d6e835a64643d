import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphCall, startTestDirectoryEmulator, type TestDirectoryEmulator } from './test-support';

// The Kiota-generated Graph SDK (@microsoft/msgraph-sdk with its users package) against the
// emulator over https, with only its request adapter's base URL and the allowed host set (a
// host name: Kiota ignores the port). It calls calendar delta in its own function form
// (`calendarView/delta()`), follows the nextLinks with withUrl, and after a change made through
// the SDK, the deltaLink gives just that change.
let emu: TestDirectoryEmulator;
beforeAll(async () => {
  emu = await startTestDirectoryEmulator();
  const token = await emu.token();
  for (let day = 1; day <= 5; day += 1) {
    const reply = await graphCall(emu.url, token, `/users/${emu.user.id}/events`, {
      method: 'POST',
      body: {
        subject: `review ${day}`,
        start: { dateTime: `2032-03-0${day}T14:00:00`, timeZone: 'UTC' },
        end: { dateTime: `2032-03-0${day}T14:30:00`, timeZone: 'UTC' },
      },
    });
    expect(reply.status).toBe(201);
  }
});
afterAll(() => emu.close());

const require = createRequire(import.meta.url);
const moduleUrl = (name: string) => pathToFileURL(require.resolve(name)).href;

const script = (origin: string, tenant: string, clientId: string, secret: string, userId: string) => `
import { createGraphServiceClient, GraphRequestAdapter } from ${JSON.stringify(moduleUrl('@microsoft/msgraph-sdk'))};
import ${JSON.stringify(moduleUrl('@microsoft/msgraph-sdk-users'))};
import { AzureIdentityAuthenticationProvider } from ${JSON.stringify(moduleUrl('@microsoft/kiota-authentication-azure'))};

const requested = [];
// A TokenCredential as @azure/identity's would be: client credentials at the emulator's token endpoint.
const credential = {
  async getToken(scopes) {
    requested.push(...[].concat(scopes));
    const form = new URLSearchParams({ grant_type: 'client_credentials', client_id: ${JSON.stringify(clientId)}, client_secret: ${JSON.stringify(secret)}, scope: [].concat(scopes).join(' ') });
    const reply = await (await fetch(${JSON.stringify(`${origin}/${tenant}/oauth2/v2.0/token`)}, { method: 'POST', body: form })).json();
    return { token: reply.access_token, expiresOnTimestamp: Date.now() + reply.expires_in * 1000 };
  },
};
const auth = new AzureIdentityAuthenticationProvider(credential, ['https://graph.microsoft.com/.default'], undefined, new Set([new URL(${JSON.stringify(origin)}).hostname]));
const adapter = new GraphRequestAdapter(auth);
adapter.baseUrl = ${JSON.stringify(`${origin}/v1.0`)};
const client = createGraphServiceClient(adapter);
const delta = client.users.byUserId(${JSON.stringify(userId)}).calendarView.delta;

const subjects = [];
const nextLinks = [];
let page = await delta.get({ queryParameters: { startDateTime: '2032-03-01T00:00:00Z', endDateTime: '2032-03-31T00:00:00Z' }, headers: { Prefer: 'odata.maxpagesize=2' } });
for (;;) {
  subjects.push(...page.value.map((e) => e.subject));
  if (!page.odataNextLink) break;
  nextLinks.push(page.odataNextLink);
  page = await delta.withUrl(page.odataNextLink).get({ headers: { Prefer: 'odata.maxpagesize=2' } });
}
const deltaLink = page.odataDeltaLink;
const created = await client.users.byUserId(${JSON.stringify(userId)}).events.post({ subject: 'added through Kiota', start: { dateTime: '2032-03-20T10:00:00', timeZone: 'UTC' }, end: { dateTime: '2032-03-20T11:00:00', timeZone: 'UTC' } });
const changes = await delta.withUrl(deltaLink).get();
console.log(JSON.stringify({ subjects: subjects.sort(), nextLinks, deltaLink, created: created.id, changes: changes.value.map((e) => ({ id: e.id, subject: e.subject, start: e.start?.dateTime })), requested: [...new Set(requested)] }));
`;

describe('the Kiota-generated Graph SDK over https', () => {
  it('reads calendar delta through its own request builders and follows next and delta links', async () => {
    const origin = `https://localhost:${emu.emulator.port}`;
    const run = promisify(execFile);
    const { stdout } = await run(
      process.execPath,
      ['--input-type=module', '-e', script(origin, emu.tenant, emu.app.clientId, emu.app.clientSecret, emu.user.id)],
      {
        env: { ...process.env, NODE_EXTRA_CA_CERTS: join(emu.dataDir, 'directory', 'tls', 'ca.pem') },
        timeout: 60_000,
      },
    );
    const out = JSON.parse(stdout.trim().split('\n').at(-1)!) as {
      subjects: string[];
      nextLinks: string[];
      deltaLink: string;
      created: string;
      changes: { id: string; subject: string; start: string }[];
      requested: string[];
    };
    expect(out.subjects).toEqual([1, 2, 3, 4, 5].map((day) => `review ${day}`));
    expect(out.nextLinks).toHaveLength(2);
    for (const link of [...out.nextLinks, out.deltaLink])
      expect(link.startsWith(`${origin}/v1.0/users/${emu.user.id}/calendarView/delta`)).toBe(true);
    expect(out.changes).toEqual([
      { id: out.created, subject: 'added through Kiota', start: expect.stringMatching(/^2032-03-20T10:00:00/) },
    ]);
    expect(out.requested).toEqual(['https://graph.microsoft.com/.default']);
  });
});
