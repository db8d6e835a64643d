import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphCall, startTestDirectoryEmulator, userTokenForm, type TestDirectoryEmulator } from './test-support';

const at = (dateTime: string) => ({ dateTime, timeZone: 'UTC' });

/** What Graph answers to malformed and oversized input: a 4xx with its error body, nothing stored. */
describe('directory emulator: bad input', () => {
  let t: TestDirectoryEmulator;
  let token: string;
  beforeAll(async () => {
    t = await startTestDirectoryEmulator();
    token = await t.token(userTokenForm());
  });
  afterAll(async () => t?.close());

  it('a token URL whose tenant is not valid percent-encoding is an unknown tenant: 400', async () => {
    const response = await fetch(`${t.url}/%ZZ/oauth2/v2.0/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: t.app.clientId,
        client_secret: t.app.clientSecret,
        scope: 'https://graph.microsoft.com/.default',
      }),
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: string; error_description: string };
    expect(body.error).toBe('invalid_request');
    expect(body.error_description).toMatch(/Tenant '%ZZ' not found/);
  });

  it('a subject over 255 characters and a body over 1 MB are refused naming the property; a body over 4 MB is 413', async () => {
    const event = { start: at('2025-05-02T09:00:00'), end: at('2025-05-02T10:00:00') };
    const long = await graphCall(t.url, token, '/me/events', { method: 'POST', body: { ...event, subject: 'x'.repeat(256) } });
    expect(long.status).toBe(400);
    expect(long.body.error).toMatchObject({ code: 'ErrorPropertyTooBig', message: expect.stringContaining("'subject'") });
    const heavy = await graphCall(t.url, token, '/me/events', {
      method: 'POST',
      body: { ...event, subject: 'ok', body: { contentType: 'text', content: 'y'.repeat(1024 * 1024 + 1) } },
    });
    expect(heavy.status).toBe(400);
    expect(heavy.body.error).toMatchObject({ code: 'ErrorPropertyTooBig', message: expect.stringContaining("'body.content'") });
    const huge = await graphCall(t.url, token, '/me/events', { method: 'POST', body: { ...event, subject: 'z'.repeat(5 * 1024 * 1024) } });
    expect(huge.status).toBe(413);
    expect(huge.body.error).toMatchObject({ code: 'RequestEntityTooLarge' });
    const listed = await graphCall(t.url, token, '/me/events');
    expect(listed.body.value).toEqual([]);
  });

  it('a delta page ends at a few megabytes whatever maxpagesize asks', async () => {
    const big = { contentType: 'text', content: 'b'.repeat(900 * 1024) };
    for (let i = 0; i < 8; i++) {
      const created = await graphCall(t.url, token, '/me/events', {
        method: 'POST',
        body: {
          subject: `big ${i}`,
          body: big,
          start: at(`2025-05-0${(i % 5) + 2}T09:00:00`),
          end: at(`2025-05-0${(i % 5) + 2}T10:00:00`),
        },
      });
      expect(created.status).toBe(201);
    }
    const first = await fetch(`${t.url}/v1.0/me/calendarView/delta?startDateTime=2025-05-01T00:00:00Z&endDateTime=2025-05-08T00:00:00Z`, {
      headers: { Authorization: `Bearer ${token}`, Prefer: 'odata.maxpagesize=1000' },
    });
    const text = await first.text();
    expect(first.status).toBe(200);
    expect(text.length).toBeLessThan(5 * 1024 * 1024);
    const page = JSON.parse(text) as { value: unknown[]; '@odata.nextLink'?: string };
    expect(page.value.length).toBeGreaterThan(0);
    expect(page.value.length).toBeLessThan(8);
    expect(page['@odata.nextLink']).toContain('$skiptoken=');
  });
});
