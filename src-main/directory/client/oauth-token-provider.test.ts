import { afterEach, describe, expect, it } from 'vitest';
import { GraphError } from './graph-error';
import { createClientCredentialsTokenProvider, createPasswordTokenProvider, GRAPH_DEFAULT_SCOPE } from './oauth-token-provider';
import { sendJson, startRecordingServer, type RecordingServer } from './recording-server';

const servers: RecordingServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** A token endpoint that issues t1, t2, ... and accepts refresh tokens r1, r2, ... once. */
async function tokenEndpoint(expiresIn = 3600) {
  let issued = 0;
  const used = new Set<string>();
  const server = await startRecordingServer((req, res) => {
    const form = Object.fromEntries(new URLSearchParams(req.body));
    const refreshOk = form.grant_type === 'refresh_token' && form.refresh_token && !used.has(form.refresh_token);
    if (form.grant_type === 'client_credentials' && form.client_secret === 's3cret') {
      issued += 1;
      sendJson(res, 200, { token_type: 'Bearer', expires_in: expiresIn, access_token: `t${issued}` });
    } else if ((form.grant_type === 'password' && form.password === 'pw') || refreshOk) {
      if (form.refresh_token) used.add(form.refresh_token);
      issued += 1;
      sendJson(res, 200, { token_type: 'Bearer', expires_in: String(expiresIn), access_token: `t${issued}`, refresh_token: `r${issued}` });
    } else {
      sendJson(res, 400, { error: 'invalid_client', error_description: 'AADSTS7000215: Invalid client secret provided.' });
    }
  });
  servers.push(server);
  return {
    server,
    tokenUrl: `${server.url}/tenant-1/oauth2/v2.0/token`,
    forms: () => server.requests.map((r) => Object.fromEntries(new URLSearchParams(r.body))),
  };
}

describe('token endpoint providers', () => {
  it('client credentials: one request shared by concurrent callers, cached until near expiry', async () => {
    const { tokenUrl, forms } = await tokenEndpoint(3600);
    let clock = 1_000_000;
    const tokens = createClientCredentialsTokenProvider({ tokenUrl, clientId: 'app-1', clientSecret: 's3cret', now: () => clock });
    expect(await Promise.all([tokens.getToken(), tokens.getToken(), tokens.getToken()])).toEqual(['t1', 't1', 't1']);
    expect(forms()).toEqual([
      { client_id: 'app-1', client_secret: 's3cret', scope: GRAPH_DEFAULT_SCOPE, grant_type: 'client_credentials' },
    ]);

    clock += 54 * 60_000; // still more than 5 minutes left
    expect(await tokens.getToken()).toBe('t1');
    clock += 2 * 60_000; // inside the renewal margin
    expect(await tokens.getToken()).toBe('t2');

    tokens.invalidate?.('stale-other-token');
    expect(await tokens.getToken()).toBe('t2');
    tokens.invalidate?.('t2');
    expect(await tokens.getToken()).toBe('t3');
  });

  it('password grant renews with the refresh token, and with the password once that fails', async () => {
    const { tokenUrl, forms } = await tokenEndpoint();
    const tokens = createPasswordTokenProvider({ tokenUrl, clientId: 'app-1', username: 'adele@contoso.example', password: 'pw' });
    expect(await tokens.getToken()).toBe('t1');
    tokens.invalidate?.('t1');
    expect(await tokens.getToken()).toBe('t2');
    expect(forms()[1]).toMatchObject({ grant_type: 'refresh_token', refresh_token: 'r1' });
    expect(forms()[0]).toMatchObject({ grant_type: 'password', username: 'adele@contoso.example', password: 'pw' });
    expect(forms()[0]!.client_secret).toBeUndefined();
  });

  it('reports the endpoint error code and description', async () => {
    const { tokenUrl } = await tokenEndpoint();
    const tokens = createClientCredentialsTokenProvider({ tokenUrl, clientId: 'app-1', clientSecret: 'wrong' });
    const error = (await tokens.getToken().catch((e: unknown) => e)) as GraphError;
    expect(error).toBeInstanceOf(GraphError);
    expect(error).toMatchObject({ status: 400, code: 'invalid_client', message: 'AADSTS7000215: Invalid client secret provided.' });
    // A failed request is not cached: the next call tries again.
    await expect(tokens.getToken()).rejects.toThrow('Invalid client secret');
  });

  it('reports an unreachable endpoint as networkError', async () => {
    const { tokenUrl } = await tokenEndpoint();
    await servers.pop()!.close();
    const tokens = createClientCredentialsTokenProvider({ tokenUrl, clientId: 'app-1', clientSecret: 's3cret' });
    await expect(tokens.getToken()).rejects.toMatchObject({ code: 'networkError', status: 0 });
  });

  it('refuses a client credentials grant without a secret', () => {
    expect(() => createClientCredentialsTokenProvider({ tokenUrl: 'http://127.0.0.1:1/t', clientId: 'a', clientSecret: '' })).toThrow(
      'client secret',
    );
  });
});
