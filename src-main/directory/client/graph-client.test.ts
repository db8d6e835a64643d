import { afterEach, describe, expect, it } from 'vitest';
import { createGraphClient, type TokenProvider } from './graph-client';
import { GraphError, isGraphError } from './graph-error';
import { startRecordingServer, sendGraphError, sendJson, type RecordingHandler, type RecordingServer } from './recording-server';

const servers: RecordingServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function serve(handler: RecordingHandler): Promise<RecordingServer> {
  const server = await startRecordingServer(handler);
  servers.push(server);
  return server;
}

/** Hands out token-1, token-2, ... : a new one after each invalidate. */
function countingTokens(): TokenProvider & { issued: number; invalidated: string[] } {
  const state = { issued: 1, invalidated: [] as string[] };
  return Object.assign(state, {
    getToken: async () => `token-${state.issued}`,
    invalidate: (token: string) => {
      state.invalidated.push(token);
      state.issued += 1;
    },
  });
}

function recordingSleep(): { waits: number[]; sleep: (ms: number) => Promise<void> } {
  const waits: number[] = [];
  return { waits, sleep: async (ms) => void waits.push(ms) };
}

describe('graph client', () => {
  it('sends the bearer token, JSON body and OData query with $ and commas as written', async () => {
    const server = await serve((req, res) => sendJson(res, 200, { id: 'p1', echo: JSON.parse(req.body || 'null') }));
    const client = createGraphClient({ baseUrl: `${server.url}/v1.0/`, tokens: countingTokens() });
    expect(client.baseUrl).toBe(`${server.url}/v1.0`);

    const answer = await client.request<{ id: string; echo: unknown }>({
      method: 'PUT',
      path: '/identityGovernance/entitlementManagement/assignmentPolicies/p1',
      query: { $expand: 'accessPackage,target', startDateTime: '2025-03-01T00:00:00+01:00' },
      body: { displayName: 'Sales' },
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ id: 'p1', echo: { displayName: 'Sales' } });
    const [seen] = server.requests;
    expect(seen?.method).toBe('PUT');
    expect(seen?.url).toBe(
      '/v1.0/identityGovernance/entitlementManagement/assignmentPolicies/p1?$expand=accessPackage,target&startDateTime=2025-03-01T00%3A00%3A00%2B01%3A00',
    );
    expect(seen?.headers.authorization).toBe('Bearer token-1');
    expect(seen?.headers['content-type']).toBe('application/json');
    expect(seen?.headers['client-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('follows an absolute http nextLink of the same origin as given, with the token', async () => {
    const server = await serve((req, res) => {
      if (req.url.includes('$skiptoken'))
        sendJson(res, 200, { value: [{ id: 'b' }], '@odata.deltaLink': `${server.url}/v1.0/me/calendarView/delta?$deltatoken=D1` });
      else sendJson(res, 200, { value: [{ id: 'a' }], '@odata.nextLink': `${server.url}/v1.0/me/calendarView/delta?$skiptoken=S%2B1` });
    });
    const client = createGraphClient({ baseUrl: `${server.url}/v1.0`, tokens: countingTokens() });
    const first = await client.request<{ '@odata.nextLink': string }>({ path: '/me/calendarView/delta' });
    const second = await client.request<{ value: unknown[] }>({ path: first.body['@odata.nextLink'] });
    expect(second.body.value).toEqual([{ id: 'b' }]);
    expect(server.requests[1]?.url).toBe('/v1.0/me/calendarView/delta?$skiptoken=S%2B1');
    expect(server.requests.map((r) => r.headers.authorization)).toEqual(['Bearer token-1', 'Bearer token-1']);
  });

  it('never sends the token to another origin: links, caller headers or redirects', async () => {
    const other = await serve((_req, res) => sendJson(res, 200, { value: [] }));
    const graph = await serve((req, res) => {
      if (req.url.startsWith('/v1.0/moved')) {
        res.writeHead(302, { location: `${other.url}/landing` });
        res.end();
      } else sendJson(res, 200, { ok: true });
    });
    const client = createGraphClient({ baseUrl: `${graph.url}/v1.0`, tokens: countingTokens() });

    await client.request({ path: `${other.url}/v1.0/me/calendarView/delta?$skiptoken=x`, headers: { Authorization: 'Bearer smuggled' } });
    await client.request({ path: '/moved' });
    // The same host on another port is another origin too.
    await client.request({ path: `${other.url.replace('127.0.0.1', 'localhost')}/x` }).catch(() => undefined);

    expect(graph.requests.map((r) => r.headers.authorization)).toEqual(['Bearer token-1']);
    expect(other.requests.length).toBeGreaterThanOrEqual(2);
    for (const seen of other.requests) expect(seen.headers.authorization).toBeUndefined();
    expect(other.requests[1]?.url).toBe('/landing');
  });

  it('waits as Retry-After says (seconds, fractions, HTTP date) and then succeeds', async () => {
    const retryAfter = ['2', '0.5', new Date(Date.now() + 60_000).toUTCString()];
    const server = await serve((_req, res) => {
      const next = retryAfter.shift();
      if (next !== undefined) sendGraphError(res, 429, 'TooManyRequests', 'Too many requests', { 'retry-after': next });
      else sendJson(res, 200, { id: 'a1' });
    });
    const { waits, sleep } = recordingSleep();
    const retries: Array<{ attempt: number; status: number }> = [];
    const client = createGraphClient({
      baseUrl: `${server.url}/v1.0`,
      tokens: countingTokens(),
      sleep,
      onRetry: ({ attempt, status }) => retries.push({ attempt, status }),
    });
    const answer = await client.request<{ id: string }>({ path: '/identityGovernance/entitlementManagement/assignments/a1' });
    expect(answer.body.id).toBe('a1');
    expect(waits.slice(0, 2)).toEqual([2000, 500]);
    expect(waits[2]).toBeGreaterThan(55_000);
    expect(waits[2]).toBeLessThanOrEqual(60_000);
    expect(retries).toEqual([
      { attempt: 1, status: 429 },
      { attempt: 2, status: 429 },
      { attempt: 3, status: 429 },
    ]);
    // One client-request-id for the logical call, echoed on every try.
    expect(new Set(server.requests.map((r) => r.headers['client-request-id'])).size).toBe(1);
  });

  it('backs off on 503/504 without Retry-After and gives up after the attempt budget', async () => {
    const server = await serve((_req, res) => sendGraphError(res, 503, 'serviceNotAvailable', 'Service unavailable', {}));
    const { waits, sleep } = recordingSleep();
    const client = createGraphClient({
      baseUrl: `${server.url}/v1.0`,
      tokens: countingTokens(),
      sleep,
      retry: { maxAttempts: 3, baseDelayMs: 100 },
    });
    const error = await client.request({ path: '/me' }).catch((e: unknown) => e);
    expect(isGraphError(error, 'serviceNotAvailable')).toBe(true);
    expect((error as GraphError).status).toBe(503);
    expect(server.requests).toHaveLength(3);
    expect(waits).toHaveLength(2);
    expect(waits[0]).toBeGreaterThanOrEqual(50);
    expect(waits[0]).toBeLessThanOrEqual(100);
    expect(waits[1]).toBeGreaterThanOrEqual(100);
    expect(waits[1]).toBeLessThanOrEqual(200);
  });

  it('surfaces a Retry-After too long to wait as a GraphError carrying retryAfterMs', async () => {
    const server = await serve((_req, res) => sendGraphError(res, 429, 'TooManyRequests', 'slow down', { 'retry-after': '3600' }));
    const { waits, sleep } = recordingSleep();
    const client = createGraphClient({ baseUrl: `${server.url}/v1.0`, tokens: countingTokens(), sleep });
    const error = (await client.request({ path: '/me' }).catch((e: unknown) => e)) as GraphError;
    expect(error).toBeInstanceOf(GraphError);
    expect(error.retryAfterMs).toBe(3_600_000);
    expect(error.requestId).toBe('8f5c1a52-3b0e-4c1f-9a51-6d1c0e7a1f00');
    expect(waits).toEqual([]);
  });

  it('refreshes the token once on 401, then reports a second 401', async () => {
    const server = await serve((req, res) => {
      if (req.headers.authorization === 'Bearer token-2' && req.url.endsWith('/ok')) sendJson(res, 200, { fine: true });
      else sendGraphError(res, 401, 'InvalidAuthenticationToken', 'Access token has expired or is not yet valid.');
    });
    const tokens = countingTokens();
    const client = createGraphClient({ baseUrl: `${server.url}/v1.0`, tokens });
    expect((await client.request<{ fine: boolean }>({ path: '/ok' })).body.fine).toBe(true);
    expect(tokens.invalidated).toEqual(['token-1']);

    const error = (await client.request({ path: '/never' }).catch((e: unknown) => e)) as GraphError;
    expect(error.status).toBe(401);
    expect(error.code).toBe('InvalidAuthenticationToken');
    expect(error.message).toBe('Access token has expired or is not yet valid.');
    expect(tokens.invalidated).toEqual(['token-1', 'token-2']);
    expect(server.requests).toHaveLength(4);
  });

  it('reports Graph error codes and non-JSON failures as GraphError values', async () => {
    const server = await serve((req, res) => {
      if (req.url.includes('gone')) sendGraphError(res, 410, 'SyncStateNotFound', 'The sync state generation is not found.');
      else {
        res.writeHead(404, { 'content-type': 'text/plain' });
        res.end('nothing here');
      }
    });
    const client = createGraphClient({ baseUrl: `${server.url}/v1.0`, tokens: countingTokens() });
    const gone = (await client.request({ path: '/gone' }).catch((e: unknown) => e)) as GraphError;
    expect(gone.toJSON()).toMatchObject({ status: 410, code: 'SyncStateNotFound', message: 'The sync state generation is not found.' });
    const missing = (await client.request({ path: '/nowhere' }).catch((e: unknown) => e)) as GraphError;
    expect(missing.code).toBe('http404');
    expect(missing.message).toContain('nothing here');
  });

  it('turns an unreachable server into networkError after retrying idempotent calls', async () => {
    const server = await serve(() => undefined);
    const deadUrl = server.url;
    await servers.pop()!.close();
    const { waits, sleep } = recordingSleep();
    const client = createGraphClient({ baseUrl: `${deadUrl}/v1.0`, tokens: countingTokens(), sleep, retry: { maxAttempts: 2 } });
    const error = (await client.request({ path: '/me' }).catch((e: unknown) => e)) as GraphError;
    expect(error.status).toBe(0);
    expect(error.code).toBe('networkError');
    expect(waits).toHaveLength(1);
    const post = (await client.request({ method: 'POST', path: '/me/events', body: {} }).catch((e: unknown) => e)) as GraphError;
    expect(post.code).toBe('networkError');
    expect(waits).toHaveLength(1); // a POST is not repeated: it might have landed
  });

  it('stops waiting when the caller aborts', async () => {
    const server = await serve((_req, res) => sendGraphError(res, 429, 'TooManyRequests', 'wait', { 'retry-after': '30' }));
    const client = createGraphClient({ baseUrl: `${server.url}/v1.0`, tokens: countingTokens() });
    const controller = new AbortController();
    const pending = client.request({ path: '/me', signal: controller.signal });
    setTimeout(() => controller.abort(new Error('user cancelled')), 50);
    await expect(pending).rejects.toThrow('user cancelled');
  });

  it('answers an empty 204 with an undefined body', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(204);
      res.end();
    });
    const client = createGraphClient({ baseUrl: `${server.url}/v1.0`, tokens: countingTokens() });
    const answer = await client.request({ method: 'DELETE', path: '/x' });
    expect(answer.status).toBe(204);
    expect(answer.body).toBeUndefined();
  });
});
