// The calendarSync contract service as the renderer reaches it: through the service host, with
// inputs validated and errors as values, over a real emulator.
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CalendarEvent, CalendarRound, CalendarSyncStatus } from '@shared/contract/directory';
import type { Result } from '@shared/contract/result';
import { createMemoryLogger } from '../../platform/logger';
import { createServiceHost, type ServiceHost } from '../../transport/service-host';
import { startTestDirectoryEmulator, type TestDirectoryEmulator } from '../emulator/test-support';
import { bindCalendarSync, type CalendarSyncBinding } from './calendar-sync-service';
import { calendarWriter, recordingClient } from './emulator-test-client';

describe('calendarSync service', () => {
  let emu: TestDirectoryEmulator;
  let dir: string;
  let host: ServiceHost;
  let closers: (() => void | Promise<void>)[];
  let binding: CalendarSyncBinding;

  /** A binding as the directory module makes one at start, on the copy in `dir`. */
  const bind = () => {
    const logger = createMemoryLogger('warn');
    host = createServiceHost(logger);
    const { client } = recordingClient(emu);
    binding = bindCalendarSync({
      ctx: { services: host, onClose: (close) => void closers.push(close) },
      client,
      databasePath: join(dir, 'data', 'directory', 'calendar.sqlite'),
      logger,
      defaults: { user: emu.user.id, intervalSeconds: 3600 },
    });
  };

  beforeEach(async () => {
    emu = await startTestDirectoryEmulator();
    dir = await mkdtemp(join(tmpdir(), 'calendar-service-'));
    closers = [];
    bind();
  });
  afterEach(async () => {
    for (const close of closers.reverse()) await close();
    await emu.close();
    await rm(dir, { recursive: true, force: true });
  });

  const call = <T>(method: string, input?: unknown) => host.call('calendarSync', method, input) as Promise<Result<T>>;

  it('answers bad input and calls out of order with clear errors', async () => {
    expect(await call('syncNow')).toMatchObject({
      ok: false,
      error: { code: 'unavailable', message: 'calendar sync is stopped: start it first' },
    });
    expect(await call('start', { start: '2030-01-01T00:00:00Z' })).toMatchObject({
      ok: false,
      error: { code: 'invalid_input', message: 'give both start and end of the window, or neither' },
    });
    expect(await call('start', { start: '2030-01-02T00:00:00Z', end: '2030-01-01T00:00:00Z' })).toMatchObject({
      ok: false,
      error: { code: 'invalid_input' },
    });
    const badDate = await call('start', { start: 'next monday', end: '2030-01-01T00:00:00Z' });
    expect(badDate).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    expect(!badDate.ok && badDate.error.message).toContain('start');
    expect(await call('eventsInRange', { start: '2030-01-02T00:00:00Z', end: '2030-01-01T00:00:00Z' })).toMatchObject({
      ok: false,
      error: { code: 'invalid_input' },
    });
    expect(await call('status')).toMatchObject({ ok: true, value: { state: 'stopped', target: null, rounds: 0 } });
  });

  it('makes the copy’s file when the sync first starts, and starts again at the next start the view left running', async () => {
    const file = join(dir, 'data', 'directory', 'calendar.sqlite');
    expect(existsSync(file)).toBe(false);
    // The console's reads before any start answer from no copy at all, and make none.
    expect(await call('status')).toMatchObject({ ok: true, value: { state: 'stopped', target: null, eventsStored: 0 } });
    expect(await call('history', { limit: 10 })).toEqual({ ok: true, value: [] });
    expect(await call('searchEvents', { text: 'x' })).toEqual({ ok: true, value: [] });
    expect(await call('eventsInRange', { start: '2030-01-01T00:00:00Z', end: '2030-02-01T00:00:00Z' })).toEqual({ ok: true, value: [] });
    expect(binding.lent.status()).toMatchObject({ state: 'stopped' });
    expect(binding.lent.eventsInRange(0, Date.now())).toEqual([]);
    expect(existsSync(file)).toBe(false);

    const window = { start: '2030-01-01T00:00:00.000Z', end: '2030-02-01T00:00:00.000Z' };
    expect(await call('start', window)).toMatchObject({ ok: true });
    expect(existsSync(file)).toBe(true);
    expect(await call('syncNow')).toMatchObject({ ok: true, value: { rounds: 1 } });

    // The app closes with the sync running and starts again: the file is opened as it starts.
    for (const close of closers.splice(0).reverse()) await close();
    bind();
    await vi.waitFor(async () => expect(await call('status')).toMatchObject({ ok: true, value: { state: 'idle', rounds: 2 } }), {
      timeout: 10_000,
      interval: 20,
    });
    expect(await call('status')).toMatchObject({ ok: true, value: { target: { user: emu.user.id, ...window } } });
  });

  it('lends the copy to other modules: starts a stopped sync, tells of each round, serves events in range', async () => {
    const writer = calendarWriter(recordingClient(emu).client, emu.user.id);
    const lent = binding.lent;
    expect(lent.eventsInRange(0, Date.now())).toEqual([]);
    let rounds = 0;
    const firstRound = new Promise<void>((resolve) =>
      lent.onRound(() => {
        rounds++;
        resolve();
      }),
    );
    const now = Date.now();
    const at = (ms: number) => new Date(ms).toISOString().slice(0, 19);
    await writer.create({ subject: 'Stand-up', start: at(now + 3_600_000), end: at(now + 5_400_000) });
    expect(await lent.ensureRunning(7)).toMatchObject({ intervalSeconds: 7 });
    await firstRound;
    expect(rounds).toBe(1);
    expect(lent.status()).toMatchObject({ state: 'idle', rounds: 1 });
    expect(lent.eventsInRange(now, now + 86_400_000).map((e) => e.subject)).toEqual(['Stand-up']);
    // A sync already running keeps its interval.
    expect(await lent.ensureRunning(60)).toMatchObject({ intervalSeconds: 7 });
    await call('syncNow');
    expect(rounds).toBe(2);
  });

  it('synchronises, pushes onStatus and serves the events of a range', async () => {
    const writer = calendarWriter(recordingClient(emu).client, emu.user.id);
    await writer.create({ subject: 'Planning', start: '2030-01-02T09:00:00', end: '2030-01-02T10:00:00' });
    await writer.create({ subject: 'Review', start: '2030-01-20T09:00:00', end: '2030-01-20T10:00:00' });
    const pushed: CalendarSyncStatus[] = [];
    const subscribed = host.subscribe('calendarSync', 'onStatus', (status) => pushed.push(status as CalendarSyncStatus));
    expect(subscribed.ok).toBe(true);

    const started = await call<CalendarSyncStatus>('start', { start: '2030-01-01T00:00:00Z', end: '2030-02-01T00:00:00Z', pageSize: 1 });
    expect(started).toMatchObject({
      ok: true,
      value: { target: { user: emu.user.id, start: '2030-01-01T00:00:00.000Z' }, pageSize: 1, intervalSeconds: 3600 },
    });
    const synced = await call<CalendarSyncStatus>('syncNow');
    expect(synced).toMatchObject({
      ok: true,
      value: { state: 'idle', rounds: 1, eventsStored: 2, lastRound: { kind: 'full', pages: 2, added: 2 } },
    });
    expect(pushed.map((s) => s.state)).toEqual(expect.arrayContaining(['syncing', 'idle']));

    const firstWeek = await call<CalendarEvent[]>('eventsInRange', { start: '2030-01-01T00:00:00Z', end: '2030-01-08T00:00:00Z' });
    expect(firstWeek.ok && firstWeek.value.map((e) => [e.subject, e.start, e.end])).toEqual([
      ['Planning', '2030-01-02T09:00:00.000Z', '2030-01-02T10:00:00.000Z'],
    ]);
    expect(firstWeek.ok && firstWeek.value[0]!.graph).toMatchObject({ '@odata.type': '#microsoft.graph.event', subject: 'Planning' });

    expect(await call('stop')).toMatchObject({ ok: true, value: { state: 'stopped', nextRoundAt: null } });
  });
  it('keeps a history of rounds: removals, a full resync after an expired token, and one asked for', async () => {
    const writer = calendarWriter(recordingClient(emu).client, emu.user.id);
    const ids: string[] = [];
    for (let i = 0; i < 12; i++)
      ids.push(
        (
          await writer.create({
            subject: `Visit ${i}`,
            start: `2030-01-${String(2 + i).padStart(2, '0')}T09:00:00`,
            end: `2030-01-${String(2 + i).padStart(2, '0')}T10:00:00`,
          })
        ).id,
      );
    const pushed: CalendarSyncStatus[] = [];
    host.subscribe('calendarSync', 'onStatus', (status) => pushed.push(status as CalendarSyncStatus));
    await call('start', { start: '2030-01-01T00:00:00Z', end: '2030-02-01T00:00:00Z', pageSize: 2 });
    expect(await call('syncNow')).toMatchObject({ ok: true, value: { eventsStored: 12, currentRound: null } });
    // While the round ran, its progress was pushed page by page.
    expect(pushed.some((s) => s.state === 'syncing' && s.currentRound !== null && s.currentRound.pages > 0)).toBe(true);

    // Three deleted, two moved out of the window: five removed in the next round.
    for (const id of ids.slice(0, 3)) await writer.remove(id);
    for (const id of ids.slice(3, 5))
      await writer.update(id, {
        start: { dateTime: '2030-03-02T09:00:00', timeZone: 'UTC' },
        end: { dateTime: '2030-03-02T10:00:00', timeZone: 'UTC' },
      });
    expect(await call('syncNow')).toMatchObject({ ok: true, value: { eventsStored: 7, lastRound: { kind: 'incremental', removed: 5 } } });

    emu.evictSyncState();
    expect(await call('syncNow')).toMatchObject({ ok: true, value: { eventsStored: 7, lastRound: { kind: 'full', reason: 'expired' } } });
    expect(await call('resync')).toMatchObject({ ok: true, value: { eventsStored: 7, lastRound: { kind: 'full', reason: 'resync' } } });

    const history = await call<CalendarRound[]>('history', { limit: 10 });
    expect(history.ok && history.value.map((r) => [r.kind, r.reason ?? '', r.removed, r.error])).toEqual([
      ['full', 'resync', 0, null],
      ['full', 'expired', 0, null],
      ['incremental', '', 5, null],
      ['full', 'first', 0, null],
    ]);
    expect(await call('history', { limit: 0 })).toMatchObject({ ok: false, error: { code: 'invalid_input' } });

    // Search by subject over the whole copy; % and _ are taken as they are typed.
    const found = await call<CalendarEvent[]>('searchEvents', { text: 'visit 1' });
    expect(found.ok && found.value.map((e) => e.subject)).toEqual(['Visit 10', 'Visit 11']);
    expect(await call('searchEvents', { text: '%' })).toEqual({ ok: true, value: [] });
    expect(await call('searchEvents', { text: ' ' })).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
  });
});
