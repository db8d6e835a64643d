import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphCall, startTestDirectoryEmulator, type TestDirectoryEmulator } from './test-support';

let emu: TestDirectoryEmulator;
let token: string;
beforeAll(async () => {
  emu = await startTestDirectoryEmulator();
  token = await emu.token();
});
afterAll(() => emu.close());

type Step = { id: string; status: number; headers: Record<string, string>; body?: Record<string, unknown> };

describe('JSON batching', () => {
  it('runs each step as its own request, in order, and fails the steps whose dependency failed', async () => {
    const reply = await graphCall(emu.url, token, '/$batch', {
      method: 'POST',
      body: {
        requests: [
          {
            id: '1',
            method: 'POST',
            url: `/users/${emu.user.id}/events`,
            headers: { 'Content-Type': 'application/json' },
            body: {
              subject: 'Batched',
              start: { dateTime: '2031-06-01T09:00:00', timeZone: 'UTC' },
              end: { dateTime: '2031-06-01T10:00:00', timeZone: 'UTC' },
            },
          },
          {
            id: '2',
            method: 'GET',
            url: `users/${emu.user.id}/calendarView?startDateTime=2031-06-01T00:00:00Z&endDateTime=2031-06-02T00:00:00Z&$select=subject`,
            dependsOn: ['1'],
          },
          { id: '3', method: 'GET', url: '/users/nobody@nowhere.example' },
          { id: '4', method: 'GET', url: '/users', dependsOn: ['3'] },
        ],
      },
    });
    expect(reply.status).toBe(200);
    const steps = (reply.body as { responses: Step[] }).responses;
    expect(steps.map((s) => [s.id, s.status])).toEqual([
      ['1', 201],
      ['2', 200],
      ['3', 404],
      ['4', 424],
    ]);
    expect(steps[0]!.body).toMatchObject({ subject: 'Batched' });
    expect((steps[1]!.body!['value'] as { subject: string }[]).map((e) => e.subject)).toEqual(['Batched']);
    expect(steps[2]!.body).toMatchObject({ error: { code: 'Request_ResourceNotFound' } });
  });

  it("builds every step's links on the scheme and host the batch came in on, never on the listening address", async () => {
    const viaName = `http://localhost:${emu.emulator.port}`;
    const reply = await graphCall(viaName, token, '/$batch', {
      method: 'POST',
      body: {
        requests: [
          {
            id: 'delta',
            method: 'GET',
            url: `/users/${emu.user.id}/calendarView/delta?startDateTime=2031-07-01T00:00:00Z&endDateTime=2031-07-02T00:00:00Z`,
            headers: { Prefer: 'odata.maxpagesize=1' },
          },
          // A step cannot name another origin for itself: the batch route sets it.
          {
            id: 'users',
            method: 'GET',
            url: '/users?$top=1',
            headers: { 'X-Emulator-Step-Origin': 'https://elsewhere.example', 'x-emulator-step-key': 'guessed' },
          },
        ],
      },
    });
    expect(reply.status).toBe(200);
    const [delta, users] = (reply.body as { responses: Step[] }).responses;
    expect(delta).toMatchObject({ status: 200 });
    expect(String(delta!.body!['@odata.context'])).toMatch(new RegExp(`^${viaName}/v1\\.0/\\$metadata#`));
    expect(String(delta!.body!['@odata.deltaLink'] ?? delta!.body!['@odata.nextLink'])).toMatch(new RegExp(`^${viaName}/v1\\.0/users/`));
    expect(users).toMatchObject({ status: 200 });
    expect(String(users!.body!['@odata.nextLink'])).toMatch(new RegExp(`^${viaName}/v1\\.0/users\\?`));
  });

  it('ignores step origin headers a client sends itself', async () => {
    const reply = await graphCall(emu.url, token, '/users?$top=1', {
      headers: { 'x-emulator-step-origin': 'https://elsewhere.example', 'x-emulator-step-key': 'guessed' },
    });
    expect(reply.status).toBe(200);
    expect(String(reply.body['@odata.nextLink'])).toMatch(new RegExp(`^${emu.url}/v1\\.0/users\\?`));
  });

  it('refuses a malformed batch with a message naming what is wrong, and an unsigned one', async () => {
    const cases: [unknown, RegExp][] = [
      [{ requests: [] }, /non-empty array/],
      [{ requests: Array.from({ length: 21 }, (_, i) => ({ id: String(i), method: 'GET', url: '/me' })) }, /maximum of 20/],
      [
        {
          requests: [
            { id: '1', method: 'GET', url: '/me' },
            { id: '1', method: 'GET', url: '/me' },
          ],
        },
        /used twice/,
      ],
      [{ requests: [{ id: '1', method: 'GET', url: 'https://elsewhere.example/v1.0/me' }] }, /relative url/],
      [{ requests: [{ id: '1', method: 'POST', url: '/me/events', body: {} }] }, /no Content-Type/],
      [
        {
          requests: [
            { id: '1', method: 'GET', url: '/me', dependsOn: ['2'] },
            { id: '2', method: 'GET', url: '/me' },
          ],
        },
        /does not come before it/,
      ],
    ];
    for (const [body, message] of cases) {
      const reply = await graphCall(emu.url, token, '/$batch', { method: 'POST', body });
      expect(reply.status).toBe(400);
      expect((reply.body as { error: { message: string } }).error.message).toMatch(message);
    }
    expect(
      (await graphCall(emu.url, null, '/$batch', { method: 'POST', body: { requests: [{ id: '1', method: 'GET', url: '/users' }] } }))
        .status,
    ).toBe(401);
  });
});
