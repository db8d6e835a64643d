import { afterEach, describe, expect, it } from 'vitest';
import type { DirectoryConnection } from '../directory-connection';
import { clientWithScopes } from './consent-client';
import { createGraphClient } from './graph-client';
import type { InteractiveTokenProvider } from './msal-sign-in';
import { sendJson, startRecordingServer, type RecordingServer } from './recording-server';

const servers: RecordingServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** A connection to a recording server; with `signIn`, a person signed in and more scopes can be asked for. */
function connectionTo(server: RecordingServer, asked: string[][] | null): DirectoryConnection {
  const client = createGraphClient({ baseUrl: `${server.url}/v1.0`, tokens: { getToken: async () => 'reading' } });
  const signIn =
    asked &&
    ({
      withScopes: (extra: string[]) => (asked.push(extra), { getToken: async () => `with ${extra.join(' ')}` }),
    } as unknown as InteractiveTokenProvider);
  return {
    client,
    fetch,
    mode: 'graph',
    tokens: { getToken: async () => 'reading' },
    ...(signIn ? { signIn } : {}),
  } as unknown as DirectoryConnection;
}

describe('clientWithScopes', () => {
  it('asks a signed-in person for the extra scopes, once per connection', async () => {
    const server = await startRecordingServer((_req, res) => sendJson(res, 200, {}));
    servers.push(server);
    const asked: string[][] = [];
    let connection = connectionTo(server, asked);
    const writer = clientWithScopes(
      async () => connection,
      ['RoleManagement.ReadWrite.Directory'],
      () => undefined,
    );
    await (await writer()).request({ method: 'DELETE', path: '/x' });
    await (await writer()).request({ method: 'DELETE', path: '/y' });
    expect(server.requests.map((r) => r.headers.authorization)).toEqual([
      'Bearer with RoleManagement.ReadWrite.Directory',
      'Bearer with RoleManagement.ReadWrite.Directory',
    ]);
    expect(asked).toEqual([['RoleManagement.ReadWrite.Directory']]);
    // A sign-in again (a new connection) brings a client of its own.
    connection = connectionTo(server, asked);
    await (await writer()).request({ path: '/z' });
    expect(asked).toHaveLength(2);
  });

  it('uses the connection’s own client when no person signs in (app-only, the emulator)', async () => {
    const server = await startRecordingServer((_req, res) => sendJson(res, 200, {}));
    servers.push(server);
    const connection = connectionTo(server, null);
    const writer = clientWithScopes(
      async () => connection,
      ['RoleManagement.ReadWrite.Directory'],
      () => undefined,
    );
    expect(await writer()).toBe(connection.client);
  });
});
