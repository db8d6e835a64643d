import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphCall, startTestDirectoryEmulator, type TestDirectoryEmulator } from './test-support';

describe('fault injection', () => {
  let t: TestDirectoryEmulator;
  let token: string;

  beforeAll(async () => {
    t = await startTestDirectoryEmulator({ faults: { rate_limit_every: 3, retry_after_seconds: 0.5 } });
    token = await t.token();
  });
  afterAll(() => t.close());

  it('every third Graph call answers 429 TooManyRequests with Retry-After; the token endpoint is never throttled', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const reply = await graphCall(t.url, token, `/users/${t.user.id}/events`);
      statuses.push(reply.status);
      if (reply.status === 429) {
        expect(reply.headers.get('retry-after')).toBe('0.5');
        expect(reply.body.error.code).toBe('TooManyRequests');
        expect(reply.headers.get('request-id')).toBe(reply.body.error.innerError['request-id']);
      }
      await t.token();
    }
    expect(statuses).toEqual([200, 200, 429, 200, 200, 429]);
  });

  it('settings change at runtime, over HTTP too: 503 ServiceUnavailable, then none', async () => {
    t.setFaults({ unavailable_every: 1, retry_after_seconds: 2 });
    const reply = await graphCall(t.url, token, `/users/${t.user.id}/events`);
    expect(reply.status).toBe(503);
    expect(reply.body.error.code).toBe('ServiceUnavailable');
    expect(reply.headers.get('retry-after')).toBe('2');
    const off = await fetch(`${t.url}/_emulator/faults`, {
      method: 'PUT',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: '{}',
    });
    expect(off.status).toBe(204);
    expect((await graphCall(t.url, token, `/users/${t.user.id}/events`)).status).toBe(200);
  });
});
