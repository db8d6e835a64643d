import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInClient } from '../test-support';
import { startTestDirectoryEmulator, type TestDirectoryEmulator } from '../emulator/test-support';
import { createGraphClient, type GraphClient } from './graph-client';
import { GraphError } from './graph-error';
import { createClientCredentialsTokenProvider } from './oauth-token-provider';
import { startRecordingServer, sendJson, type RecordingServer } from './recording-server';

// The client against the Graph emulator over real HTTP: tokens from its token endpoint,
// retries on its injected throttling, a token refresh when its clock expires a token.

let emu: TestDirectoryEmulator;
beforeAll(async () => {
  emu = await startTestDirectoryEmulator();
});
afterAll(async () => {
  await emu?.close();
});

const userClient = (extra: Parameters<typeof signedInClient>[1] = {}): GraphClient => signedInClient(emu, extra);

describe('graph client against the emulator', () => {
  it('signs in as the user (password grant) and as the app (client credentials)', async () => {
    const me = await userClient().request<{ id: string; userPrincipalName: string }>({ path: '/me' });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ id: emu.user.id, userPrincipalName: emu.user.userPrincipalName });

    const app = createGraphClient({
      baseUrl: `${emu.url}/v1.0`,
      tokens: createClientCredentialsTokenProvider({
        tokenUrl: `${emu.url}/${emu.tenant}/oauth2/v2.0/token`,
        clientId: emu.app.clientId,
        clientSecret: emu.app.clientSecret,
      }),
    });
    const user = await app.request<{ id: string }>({ path: `/users/${emu.user.userPrincipalName}` });
    expect(user.body.id).toBe(emu.user.id);
    // App tokens have no /me.
    await expect(app.request({ path: '/me' })).rejects.toMatchObject({ status: 400 });
  });

  it('waits out 429 as Retry-After says, counting each wait', async () => {
    emu.setFaults({ rate_limit_every: 2, retry_after_seconds: 1.5 });
    try {
      const waits: number[] = [];
      const client = userClient({ sleep: async (ms) => void waits.push(ms) });
      for (let i = 0; i < 4; i += 1) expect((await client.request({ path: '/me' })).status).toBe(200);
      // Every 2nd call the emulator sees is throttled: the first request went through, each of
      // the other three was refused once and retried after 1.5 s.
      expect(waits).toEqual([1500, 1500, 1500]);
    } finally {
      emu.setFaults({});
    }
  });

  it('gives up after the attempt budget with the throttling error', async () => {
    emu.setFaults({ rate_limit_every: 1, retry_after_seconds: 2 });
    try {
      const waits: number[] = [];
      const client = userClient({ sleep: async (ms) => void waits.push(ms), retry: { maxAttempts: 3 } });
      const error = (await client.request({ path: '/me' }).catch((e: unknown) => e)) as GraphError;
      expect(error).toBeInstanceOf(GraphError);
      expect(error).toMatchObject({ status: 429, code: 'TooManyRequests', retryAfterMs: 2000 });
      expect(error.requestId).toMatch(/^[0-9a-f-]{36}$/);
      expect(waits).toEqual([2000, 2000]);
    } finally {
      emu.setFaults({});
    }
  });

  it('refreshes an expired token once on 401', async () => {
    const client = userClient();
    expect((await client.request({ path: '/me' })).status).toBe(200);
    // Two hours later for the emulator: the cached token has expired there.
    emu.shift(2 * 3_600_000);
    try {
      expect((await client.request<{ id: string }>({ path: '/me' })).body.id).toBe(emu.user.id);
    } finally {
      emu.shift(0);
    }
  });

  it('reports a refused token as InvalidAuthenticationToken', async () => {
    const client = createGraphClient({ baseUrl: `${emu.url}/v1.0`, tokens: { getToken: async () => 'not-a-token' } });
    const error = (await client.request({ path: '/me' }).catch((e: unknown) => e)) as GraphError;
    expect(error).toMatchObject({ status: 401, code: 'InvalidAuthenticationToken' });
  });

  it('never sends the token to a link on another origin', async () => {
    const other: RecordingServer = await startRecordingServer((_req, res) => sendJson(res, 200, { value: [] }));
    try {
      const client = userClient();
      await client.request({ path: '/me' });
      await client.request({ path: `${other.url}/v1.0/me/calendarView/delta?$skiptoken=stolen` });
      expect(other.requests).toHaveLength(1);
      expect(other.requests[0]?.headers.authorization).toBeUndefined();
    } finally {
      await other.close();
    }
  });
});
