import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  graphCall,
  startTestDirectoryEmulator,
  TEST_OTHER_USER,
  userTokenForm,
  type GraphReply,
  type TestDirectoryEmulator,
} from './test-support';

const at = (dateTime: string, timeZone = 'UTC') => ({ dateTime, timeZone });
const WINDOW = 'startDateTime=2025-05-01T00:00:00Z&endDateTime=2025-05-08T00:00:00Z';

interface Entry {
  id: string;
  subject?: string;
  type?: string;
  '@removed'?: { reason: string };
  start?: { dateTime: string; timeZone: string };
}

describe('calendarView/delta', () => {
  let t: TestDirectoryEmulator;
  let token: string;
  const call = (path: string, init?: Parameters<typeof graphCall>[3]) => graphCall(t.url, token, path, init);
  const create = async (subject: string, start: string, end: string, extra: Record<string, unknown> = {}) =>
    (await call('/me/events', { method: 'POST', body: { subject, start: at(start), end: at(end), ...extra } })).body.id as string;

  /** Follows nextLinks to the deltaLink, checking each page carries exactly one of the two. */
  const round = async (first: string, pageSize: number): Promise<{ pages: Entry[][]; deltaLink: string }> => {
    const pages: Entry[][] = [];
    let url = first;
    for (;;) {
      const reply: GraphReply = await call(url, { headers: { Prefer: `odata.maxpagesize=${pageSize}` } });
      expect(reply.status).toBe(200);
      expect(reply.headers.get('preference-applied')).toBe(`odata.maxpagesize=${pageSize}`);
      expect(reply.body['@odata.context']).toMatch(/\$metadata#Collection\(event\)$/);
      const next = reply.body['@odata.nextLink'] as string | undefined;
      const delta = reply.body['@odata.deltaLink'] as string | undefined;
      expect(Boolean(next) !== Boolean(delta)).toBe(true);
      expect((reply.body.value as Entry[]).length).toBeLessThanOrEqual(pageSize);
      pages.push(reply.body.value as Entry[]);
      if (delta) {
        expect(delta).toContain('/me/calendarView/delta?$deltatoken=');
        return { pages, deltaLink: delta };
      }
      expect(next).toContain('/me/calendarView/delta?$skiptoken=');
      url = next!;
    }
  };

  beforeAll(async () => {
    t = await startTestDirectoryEmulator();
    token = await t.token(userTokenForm());
  });
  afterAll(() => t.close());

  it('a first round returns the window; later rounds return adds, updates and deletes in and out of it', async () => {
    const a = await create('A', '2025-05-02T09:00:00', '2025-05-02T10:00:00');
    const b = await create('B', '2025-05-03T09:00:00', '2025-05-03T10:00:00');
    const c = await create('C', '2025-05-04T09:00:00', '2025-05-04T10:00:00');
    const d = await create('D', '2025-06-01T09:00:00', '2025-06-01T10:00:00');
    const s = await create('S', '2025-04-28T08:00:00', '2025-04-28T08:30:00', {
      recurrence: {
        pattern: { type: 'weekly', interval: 1, daysOfWeek: ['monday', 'wednesday'] },
        range: { type: 'noEnd', startDate: '2025-04-28' },
      },
    });

    const first = await round(`/me/calendarView/delta?${WINDOW}`, 2);
    expect(first.pages.map((p) => p.length)).toEqual([2, 2, 1]);
    const all = first.pages.flat();
    expect(all.every((e) => !e['@removed'])).toBe(true);
    expect(all.map((e) => `${e.subject}:${e.type}`).sort()).toEqual([
      'A:singleInstance',
      'B:singleInstance',
      'C:singleInstance',
      'S:occurrence',
      'S:occurrence',
    ]);
    const occurrences = all.filter((e) => e.subject === 'S');
    expect(occurrences.map((e) => e.start!.dateTime).sort()).toEqual(['2025-05-05T08:00:00.0000000', '2025-05-07T08:00:00.0000000']);
    expect(all.find((e) => e.id === d)).toBeUndefined();

    // Nothing changed: one empty page.
    const idle = await round(first.deltaLink, 2);
    expect(idle.pages).toEqual([[]]);

    const may7 = occurrences.find((e) => e.start!.dateTime.startsWith('2025-05-07'))!.id;
    await call(`/me/events/${a}`, { method: 'PATCH', body: { subject: 'A2' } });
    await call(`/me/events/${b}`, { method: 'DELETE' });
    await call(`/me/events/${c}`, { method: 'PATCH', body: { start: at('2025-06-02T09:00:00'), end: at('2025-06-02T10:00:00') } });
    const e = await create('E', '2025-05-06T09:00:00', '2025-05-06T10:00:00');
    const f = await create('F', '2025-07-01T09:00:00', '2025-07-01T10:00:00');
    await call(`/me/events/${d}`, { method: 'PATCH', body: { subject: 'D2' } });
    await call(`/me/events/${may7}`, { method: 'DELETE' });

    const second = await round(idle.deltaLink, 2);
    expect(second.pages.map((p) => p.length)).toEqual([2, 2, 2, 2]);
    const entries = second.pages.flat();
    const removed = entries.filter((x) => x['@removed']).map((x) => x.id);
    const changed = entries.filter((x) => !x['@removed']);
    expect(entries.filter((x) => x['@removed']).every((x) => x['@removed']!.reason === 'deleted' && Object.keys(x).length === 3)).toBe(
      true,
    );
    expect(removed.sort()).toEqual([b, c, d, f, may7].sort());
    expect(changed.map((x) => x.subject).sort()).toEqual(['A2', 'E', 'S']);
    expect(changed.find((x) => x.subject === 'E')!.id).toBe(e);
    expect(changed.filter((x) => x.subject === 'S').every((x) => x.type === 'occurrence' && x.id.startsWith(`${s}_`))).toBe(true);

    // The deltaLink of that round sees only what comes after it.
    const third = await round(second.deltaLink, 3);
    expect(third.pages).toEqual([[]]);
  });

  it('a write during a round comes in the next round, and applying pages twice is harmless', async () => {
    await create('R1', '2025-05-05T11:00:00', '2025-05-05T12:00:00');
    await create('R2', '2025-05-05T13:00:00', '2025-05-05T14:00:00');
    const page1 = await call(`/me/calendarView/delta?${WINDOW}`, { headers: { Prefer: 'odata.maxpagesize=1' } });
    const late = await create('Late', '2025-05-06T15:00:00', '2025-05-06T16:00:00');
    const rest = await round(page1.body['@odata.nextLink'] as string, 1);
    // Replaying the same nextLink gives the same page again.
    const replay = await call(page1.body['@odata.nextLink'] as string, { headers: { Prefer: 'odata.maxpagesize=1' } });
    expect(replay.body.value).toEqual(rest.pages[0]);
    const next = await round(rest.deltaLink, 5);
    expect(next.pages.flat().map((x) => x.id)).toEqual([late]);
  });

  it('honours Prefer outlook.timezone and reports both preferences as applied', async () => {
    const reply = await call(`/me/calendarView/delta?${WINDOW}`, {
      headers: { Prefer: 'odata.maxpagesize=50, outlook.timezone="Tokyo Standard Time"' },
    });
    expect(reply.headers.get('preference-applied')).toBe('odata.maxpagesize=50, outlook.timezone="Tokyo Standard Time"');
    const a2 = (reply.body.value as Entry[]).find((x) => x.subject === 'A2')!;
    expect(a2.start).toEqual({ dateTime: '2025-05-02T18:00:00.0000000', timeZone: 'Tokyo Standard Time' });
  });

  it('400 without a window, with an unsupported option, or with a forged or foreign token', async () => {
    const noWindow = await call('/me/calendarView/delta');
    expect(noWindow.status).toBe(400);
    expect(noWindow.body.error).toEqual(
      expect.objectContaining({
        code: 'ErrorInvalidParameter',
        message: 'This request requires a time window specified by the query string parameters StartDateTime and EndDateTime.',
      }),
    );
    expect((await call(`/me/calendarView/delta?${WINDOW}&$filter=subject eq 'A'`)).body.error.code).toBe('ErrorInvalidUrlQuery');

    const first = await round(`/me/calendarView/delta?${WINDOW}`, 100);
    const link = new URL(first.deltaLink);
    const tokenText = link.searchParams.get('$deltatoken')!;
    const [payload, signature] = tokenText.split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString()) as Record<string, unknown>;
    const widened = Buffer.from(JSON.stringify({ ...claims, ws: 0 })).toString('base64url');
    // The last signature character changed to another one (a fixed 'A' is no change when it ends in 'A').
    const tampered = `${payload}.${signature!.slice(0, -1)}${signature!.endsWith('A') ? 'B' : 'A'}`;
    for (const forged of [`${widened}.${signature}`, 'garbage', tampered]) {
      const reply = await call(`/me/calendarView/delta?$deltatoken=${encodeURIComponent(forged)}`);
      expect(reply.status).toBe(400);
      expect(reply.body.error.code).toBe('InvalidDeltaToken');
    }
    const page = await call(`/me/calendarView/delta?${WINDOW}`, { headers: { Prefer: 'odata.maxpagesize=1' } });
    const skip = new URL(page.body['@odata.nextLink'] as string).searchParams.get('$skiptoken')!;
    expect((await call(`/me/calendarView/delta?$skiptoken=${skip.slice(0, -2)}zz`)).body.error.code).toBe('InvalidSkipToken');

    const appToken = await t.token();
    const foreign = await graphCall(t.url, appToken, `/users/${TEST_OTHER_USER.id}/calendarView/delta?$deltatoken=${tokenText}`);
    expect(foreign.status).toBe(400);
    // The same token works on the /users/{id} path of its own mailbox.
    expect((await graphCall(t.url, appToken, `/users/${t.user.id}/calendarView/delta?$deltatoken=${tokenText}`)).status).toBe(200);
  });

  it('410 SyncStateNotFound once the change log no longer reaches back to the token', async () => {
    const first = await round(`/me/calendarView/delta?${WINDOW}`, 100);
    const midRound = (await call(`/me/calendarView/delta?${WINDOW}`, { headers: { Prefer: 'odata.maxpagesize=1' } })).body[
      '@odata.nextLink'
    ] as string;
    t.evictSyncState();
    for (const url of [first.deltaLink, midRound]) {
      const gone = await call(url);
      expect(gone.status).toBe(410);
      expect(gone.body.error.code).toBe('SyncStateNotFound');
      // Location: where a fresh synchronisation of the same window starts.
      const restart = new URL(gone.headers.get('location')!);
      expect(restart.pathname).toBe('/v1.0/me/calendarView/delta');
      expect([restart.searchParams.get('startDateTime'), restart.searchParams.get('endDateTime')].map((d) => Date.parse(d!))).toEqual(
        [new URLSearchParams(WINDOW).get('startDateTime'), new URLSearchParams(WINDOW).get('endDateTime')].map((d) => Date.parse(d!)),
      );
    }
    // The function forms SDKs send reach the same delta.
    for (const form of ['delta()', 'microsoft.graph.delta()', 'microsoft.graph.delta']) {
      const page = await call(`/me/calendarView/${form}?${WINDOW}`);
      expect(page.status).toBe(200);
      expect(page.body['@odata.deltaLink'] ?? page.body['@odata.nextLink']).toContain(`/me/calendarView/${form}?`);
    }
    // A full synchronisation starts over and is fine afterwards.
    const fresh = await round(`/me/calendarView/delta?${WINDOW}`, 100);
    await create('After', '2025-05-07T09:00:00', '2025-05-07T10:00:00');
    expect((await round(fresh.deltaLink, 100)).pages.flat().map((x) => x.subject)).toEqual(['After']);
  });
});

describe('calendarView/delta with a small change log', () => {
  it('evicts tokens older than the log holds', async () => {
    const t = await startTestDirectoryEmulator({ changeLogLimit: 3 });
    try {
      const token = await t.token(userTokenForm());
      const first = await graphCall(t.url, token, `/me/calendarView/delta?${WINDOW}`);
      const body = { subject: 'x', start: at('2025-05-02T09:00:00'), end: at('2025-05-02T10:00:00') };
      for (let i = 0; i < 3; i++) await graphCall(t.url, token, '/me/events', { method: 'POST', body });
      expect((await graphCall(t.url, token, first.body['@odata.deltaLink'] as string)).status).toBe(200);
      await graphCall(t.url, token, '/me/events', { method: 'POST', body });
      const gone = await graphCall(t.url, token, first.body['@odata.deltaLink'] as string);
      expect(gone.status).toBe(410);
      expect(gone.body.error.code).toBe('SyncStateNotFound');
    } finally {
      await t.close();
    }
  });
});
