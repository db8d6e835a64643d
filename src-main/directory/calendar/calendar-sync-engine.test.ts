// The sync engine against the local Graph emulator over real HTTP: after every round the local
// copy must equal the emulator's own calendarView of the window.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CalendarSyncStatus } from '@shared/contract/directory';
import { createMemoryLogger } from '../../platform/logger';
import type { RetryOptions } from '../client/retry-policy';
import { startTestDirectoryEmulator, type TestDirectoryEmulator } from '../emulator/test-support';
import { CalendarStore } from './calendar-store';
import { CalendarSyncNotStartedError, createCalendarSyncEngine, type CalendarSyncEngine } from './calendar-sync-engine';
import { parseDeltaPage } from './delta-page';
import type { GraphClient } from '../client/graph-client';
import { GraphError } from '../client/graph-error';
import { calendarViewOf, calendarWriter, recordingClient, type SentRequest } from './emulator-test-client';

const WINDOW = { start: '2030-01-01T00:00:00.000Z', end: '2030-02-01T00:00:00.000Z' };
const two = (n: number) => String(n).padStart(2, '0');
const inWindow = (day: number, subject = `january ${day}`) => ({
  subject,
  start: `2030-01-${two(day)}T09:00:00`,
  end: `2030-01-${two(day)}T10:00:00`,
});
const outside = (day: number, subject = `march ${day}`) => ({
  subject,
  start: `2030-03-${two(day)}T09:00:00`,
  end: `2030-03-${two(day)}T10:00:00`,
});
const at = (day: number, month = 1) => ({
  start: { dateTime: `2030-${two(month)}-${two(day)}T09:00:00`, timeZone: 'UTC' },
  end: { dateTime: `2030-${two(month)}-${two(day)}T10:00:00`, timeZone: 'UTC' },
});
const deltaRequests = (sent: SentRequest[]) => sent.filter((r) => r.url.includes('/calendarView/delta'));

describe('calendar sync against the emulator', () => {
  let emu: TestDirectoryEmulator;
  let dir: string;
  let closers: (() => Promise<void>)[];
  let writer: ReturnType<typeof calendarWriter>;
  let admin: ReturnType<typeof recordingClient>['client'];

  beforeEach(async () => {
    emu = await startTestDirectoryEmulator();
    dir = await mkdtemp(join(tmpdir(), 'calendar-sync-'));
    closers = [];
    admin = recordingClient(emu).client;
    writer = calendarWriter(admin, emu.user.id);
  });
  afterEach(async () => {
    for (const close of closers.reverse()) await close();
    await emu.close();
    await rm(dir, { recursive: true, force: true });
  });

  /** A sync engine on the shared SQLite file, as the app builds one at each start. */
  function openSync(
    retry?: RetryOptions,
    adapt: (client: GraphClient) => GraphClient = (client) => client,
  ): { sync: CalendarSyncEngine; store: CalendarStore; sent: SentRequest[] } {
    const store = new CalendarStore(join(dir, 'calendar.sqlite'));
    const holder: { sync?: CalendarSyncEngine } = {};
    const recording = recordingClient(emu, { retry, onRetry: (info) => holder.sync?.recordRetry(info) });
    const { sent } = recording;
    const client = adapt(recording.client);
    const sync = createCalendarSyncEngine({ client, store, logger: createMemoryLogger('warn') });
    holder.sync = sync;
    let closed = false;
    const close = async () => {
      if (closed) return;
      closed = true;
      await sync.close();
      store.close();
    };
    closers.push(close);
    return { sync, store, sent };
  }

  const startRequest = (pageSize: number) => ({ user: emu.user.id, start: WINDOW.start, end: WINDOW.end, intervalSeconds: 3600, pageSize });

  async function expectInStep(sync: CalendarSyncEngine): Promise<void> {
    const remote = await calendarViewOf(admin, emu.user.id, WINDOW);
    const local = new Map(sync.eventsInRange(WINDOW.start, WINDOW.end).map((e) => [e.id, e.lastModifiedDateTime]));
    expect(local).toEqual(remote);
    expect(sync.status().eventsStored).toBe(remote.size);
  }

  it('keeps the local copy equal to the calendar view through adds, updates and deletes in and out of the window', async () => {
    const seeded: { id: string }[] = [];
    for (const day of [2, 3, 4, 5, 6]) seeded.push(await writer.create(inWindow(day)));
    const out1 = await writer.create(outside(3));
    const out2 = await writer.create(outside(4));

    const { sync, sent } = openSync();
    await sync.start(startRequest(2));
    let status = await sync.syncNow();
    expect(status).toMatchObject({ state: 'idle', rounds: 1, fullSyncs: 1, eventsStored: 5, lastError: null });
    expect(status.lastRound).toMatchObject({ kind: 'full', pages: 3, added: 5, updated: 0, removed: 0 });
    const firstRound = deltaRequests(sent);
    expect(firstRound[0]!.url).toContain('startDateTime=');
    expect(firstRound.slice(1).every((r) => r.url.includes('$skiptoken=') && !r.url.includes('startDateTime'))).toBe(true);
    expect(firstRound.every((r) => r.prefer === 'odata.maxpagesize=2')).toBe(true);
    await expectInStep(sync);

    // Round 2: two added inside, one added outside, one renamed, one moved out, one deleted
    // inside, one deleted and one changed outside.
    const added1 = await writer.create(inWindow(10));
    await writer.create(inWindow(11));
    await writer.create(outside(5));
    await writer.update(seeded[0]!.id, { subject: 'renamed' });
    await writer.update(seeded[1]!.id, at(20, 3));
    await writer.remove(seeded[2]!.id);
    await writer.remove(out1.id);
    await writer.update(out2.id, { subject: 'still outside' });
    const before2 = sent.length;
    status = await sync.syncNow();
    expect(status.lastRound).toMatchObject({ kind: 'incremental', added: 2, updated: 1, removed: 2 });
    expect(status.lastRound!.pages).toBeGreaterThanOrEqual(4);
    expect(deltaRequests(sent.slice(before2))[0]!.url).toContain('$deltatoken=');
    await expectInStep(sync);
    expect(sync.eventsInRange(WINDOW.start, WINDOW.end).find((e) => e.id === seeded[0]!.id)).toMatchObject({
      subject: 'renamed',
      start: '2030-01-02T09:00:00.000Z',
    });

    // Round 3, same view at page size 3: an outside event moves in, one is edited twice, one
    // added in round 2 is deleted.
    await writer.update(out2.id, at(20));
    await writer.update(seeded[3]!.id, { subject: 'edit 1' });
    await writer.update(seeded[3]!.id, { subject: 'edit 2' });
    await writer.remove(added1.id);
    const before3 = sent.length;
    await sync.start({ user: emu.user.id, start: WINDOW.start, end: WINDOW.end, pageSize: 3 });
    status = await sync.syncNow();
    expect(status.lastRound).toMatchObject({ kind: 'incremental', added: 1, updated: 1, removed: 1 });
    expect(deltaRequests(sent.slice(before3)).every((r) => r.prefer === 'odata.maxpagesize=3')).toBe(true);
    expect(status).toMatchObject({ rounds: 3, fullSyncs: 1, intervalSeconds: 3600, pageSize: 3 });
    expect(status.totals).toMatchObject({ added: 8, updated: 2, removed: 3 });
    await expectInStep(sync);
  });

  it('changes nothing when the pages of a round are applied again', async () => {
    const seeded: { id: string }[] = [];
    for (const day of [2, 3, 4, 5]) seeded.push(await writer.create(inWindow(day)));
    const { sync, store, sent } = openSync();
    await sync.start(startRequest(2));
    await sync.syncNow();
    await writer.create(inWindow(12));
    await writer.update(seeded[0]!.id, { subject: 'renamed' });
    await writer.remove(seeded[1]!.id);
    await writer.create(outside(9));
    const before = sent.length;
    await sync.syncNow();

    const viewId = store.currentView()!.id;
    const copy = store.allEvents(viewId);
    const counters = store.currentView()!.counters;
    const pages = deltaRequests(sent.slice(before)).map((r) => parseDeltaPage(r.body));
    expect(pages.length).toBeGreaterThanOrEqual(2);
    for (const page of [...pages, ...pages.slice().reverse()]) {
      expect(store.applyPage(viewId, page, new Date())).toMatchObject({ added: 0, updated: 0, removed: 0, completed: null });
    }
    expect(store.allEvents(viewId)).toEqual(copy);
    expect(store.currentView()!.counters).toEqual(counters);
    await expectInStep(sync);
  });

  it('starts a full synchronisation when the delta token expired (410 SyncStateNotFound)', async () => {
    const seeded: { id: string }[] = [];
    for (const day of [2, 3, 4]) seeded.push(await writer.create(inWindow(day)));
    const { sync, sent } = openSync();
    await sync.start(startRequest(2));
    await sync.syncNow();

    emu.evictSyncState();
    await writer.remove(seeded[0]!.id);
    await writer.create(inWindow(15));
    const before = sent.length;
    const status = await sync.syncNow();
    const requests = deltaRequests(sent.slice(before));
    expect(requests[0]).toMatchObject({ status: 410 });
    expect(requests[0]!.url).toContain('$deltatoken=');
    expect(requests[1]!.url).toContain('startDateTime=');
    expect(status).toMatchObject({ state: 'idle', fullSyncs: 2, rounds: 2, lastError: null });
    // The full round sweeps the event deleted while no delta state was valid.
    expect(status.lastRound).toMatchObject({ kind: 'full', added: 1, updated: 0, removed: 1 });
    await expectInStep(sync);
  });

  it('starts a full synchronisation when a stored deltaLink is answered 400 with a sync-state code', async () => {
    for (const day of [2, 3]) await writer.create(inWindow(day));
    let refused = 0;
    // Outlook answers some dead delta tokens with 400 rather than 410.
    const { sync, sent } = openSync(undefined, (client) => ({
      baseUrl: client.baseUrl,
      async request(request) {
        if (request.path.includes('$deltatoken=') && refused === 0 && sent.length > 0) {
          refused += 1;
          throw new GraphError(400, 'InvalidDeltaToken', 'The delta token is not valid.');
        }
        return client.request(request);
      },
    }));
    await sync.start(startRequest(5));
    await sync.syncNow();
    await writer.create(inWindow(9));
    const status = await sync.syncNow();
    expect(refused).toBe(1);
    expect(status).toMatchObject({ fullSyncs: 2, lastError: null, lastRound: { kind: 'full', reason: 'expired', added: 1 } });
    await expectInStep(sync);
  });

  it('does not follow delta links another connection handed out: a full round instead', async () => {
    for (const day of [2, 3]) await writer.create(inWindow(day));
    const first = openSync(undefined, (client) => Object.assign(Object.create(client) as GraphClient, { connectionKey: 'tenant-a' }));
    await first.sync.start(startRequest(5));
    await first.sync.syncNow();
    await closers.pop()!();

    const second = openSync(undefined, (client) => Object.assign(Object.create(client) as GraphClient, { connectionKey: 'tenant-b' }));
    await second.sync.resume();
    const status = await second.sync.syncNow();
    const requests = deltaRequests(second.sent);
    expect(requests[0]!.url).toContain('startDateTime=');
    expect(requests.some((r) => r.url.includes('$deltatoken='))).toBe(false);
    expect(status).toMatchObject({ fullSyncs: 2, lastRound: { kind: 'full', reason: 'connection', added: 0, removed: 0 } });
    await expectInStep(second.sync);
  });

  it('continues from the stored deltaLink after a restart', async () => {
    for (const day of [2, 3, 4]) await writer.create(inWindow(day));
    const first = openSync();
    await first.sync.start(startRequest(2));
    await first.sync.syncNow();
    await closers.pop()!();

    const added = await writer.create(inWindow(25));
    const second = openSync();
    expect(second.sync.status()).toMatchObject({
      state: 'stopped',
      rounds: 1,
      target: { user: emu.user.id, start: WINDOW.start, end: WINDOW.end },
    });
    await second.sync.resume();
    const status = await second.sync.syncNow();
    const requests = deltaRequests(second.sent);
    expect(requests[0]!.url).toContain('$deltatoken=');
    expect(requests[0]!.url).not.toContain('startDateTime');
    expect(status).toMatchObject({ rounds: 2, fullSyncs: 1, lastRound: { kind: 'incremental', added: 1, removed: 0 } });
    expect(second.sync.eventsInRange(WINDOW.start, WINDOW.end).map((e) => e.id)).toContain(added.id);
    await expectInStep(second.sync);
  });

  it('waits out 429 answers and counts them', async () => {
    for (const day of [2, 3, 4, 5, 6]) await writer.create(inWindow(day));
    emu.setFaults({ rate_limit_every: 2, retry_after_seconds: 0.05 });
    const { sync, sent } = openSync();
    await sync.start(startRequest(2));
    const status = await sync.syncNow();
    expect(deltaRequests(sent).some((r) => r.status === 429)).toBe(true);
    expect(status).toMatchObject({ state: 'idle', rounds: 1, lastError: null, lastRound: { kind: 'full', pages: 3, added: 5 } });
    expect(status.throttled).toBeGreaterThanOrEqual(1);
    emu.setFaults({});
    await expectInStep(sync);
  });

  it('records a failed round and resumes it from the saved nextLink', async () => {
    for (const day of [2, 3, 4, 5, 6]) await writer.create(inWindow(day));
    emu.setFaults({ unavailable_every: 3, retry_after_seconds: 0.05 });
    const { sync, store, sent } = openSync({ maxAttempts: 1 });
    await sync.start(startRequest(2));
    let status = await sync.syncNow();
    expect(status).toMatchObject({ state: 'error', rounds: 0, lastError: { code: 'ServiceUnavailable' } });
    expect(status.nextRoundAt).not.toBeNull();
    expect(store.currentView()).toMatchObject({ deltaLink: null, round: { kind: 'full', pages: 2, added: 4 } });
    const resumePoint = store.currentView()!.nextLink;
    expect(resumePoint).toContain('$skiptoken=');

    emu.setFaults({});
    const before = sent.length;
    status = await sync.syncNow();
    expect(deltaRequests(sent.slice(before))[0]!.url).toBe(resumePoint);
    expect(status).toMatchObject({ state: 'idle', rounds: 1, lastRound: { kind: 'full', pages: 3, added: 5 } });
    await expectInStep(sync);
  });

  it('runs rounds on its interval until stopped', async () => {
    await writer.create(inWindow(2));
    const { sync } = openSync();
    const seen: CalendarSyncStatus[] = [];
    sync.subscribe((status) => seen.push(status));
    const twoRounds = new Promise<void>((resolve) =>
      sync.subscribe((status) => status.rounds >= 2 && status.state === 'idle' && resolve()),
    );
    await sync.start({ ...startRequest(2), intervalSeconds: 1 });
    await twoRounds;
    expect(seen.map((s) => s.state)).toContain('syncing');
    const idle = seen.find((s) => s.state === 'idle')!;
    expect(Date.parse(idle.nextRoundAt!)).toBeGreaterThan(Date.parse(idle.lastSuccessAt!));

    const stopped = await sync.stop();
    expect(stopped).toMatchObject({ state: 'stopped', nextRoundAt: null });
    await expect(sync.syncNow()).rejects.toThrow(CalendarSyncNotStartedError);
  });
});
