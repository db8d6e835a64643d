import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGraphClient } from '../client/graph-client';
import { startTestDirectoryEmulator, type TestDirectoryEmulator } from '../emulator/test-support';
import { GraphTrafficLog } from './graph-traffic-log';

describe('GraphTrafficLog fed by a real Graph client', () => {
  let graph: TestDirectoryEmulator;
  beforeAll(async () => {
    graph = await startTestDirectoryEmulator({ demoData: true });
  });
  afterAll(() => graph.close());

  it('records each exchange with status, request id and a redacted URL, newest first, and tells listeners', async () => {
    const log = new GraphTrafficLog(3);
    const heard: number[] = [];
    log.subscribe((exchange) => heard.push(exchange.status));
    const token = await graph.token();
    const client = createGraphClient({
      baseUrl: `${graph.url}/v1.0`,
      tokens: { getToken: async () => token },
      onExchange: log.recorder('calendar'),
      retry: { maxAttempts: 1 },
    });
    await client.request({ path: '/identityGovernance/entitlementManagement/catalogs' });
    await client.request({ path: '/users/nobody' }).catch(() => undefined);
    await client.request({
      path: `/users/${graph.user.id}/calendarView/delta`,
      query: { startDateTime: '2025-05-01T00:00:00Z', endDateTime: '2025-05-02T00:00:00Z' },
    });
    const page = log.recent(10)[0]!;
    expect(heard).toEqual([200, 404, 200]);
    const [latest, failed, first] = log.recent(10);
    expect(first).toMatchObject({
      source: 'calendar',
      method: 'GET',
      status: 200,
      errorCode: null,
      url: `${graph.url}/v1.0/identityGovernance/entitlementManagement/catalogs`,
    });
    expect(failed).toMatchObject({ status: 404, errorCode: 'Request_ResourceNotFound' });
    expect(failed!.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(latest).toBe(page);
    expect(latest!.durationMs).toBeGreaterThan(0);

    // A next link carries a skip token: the log shows that one was sent, not what it was.
    await client.request({ path: `/users/${graph.user.id}/calendarView/delta?$skiptoken=secret-state`, query: {} }).catch(() => undefined);
    expect(log.recent(1)[0]!.url).toContain('$skiptoken=…');
    expect(JSON.stringify(log.recent(10))).not.toContain('secret-state');
    expect(log.recent(10)).toHaveLength(3);
    expect(log.clear()).toBe(3);
    expect(log.recent(10)).toEqual([]);
  });
});
