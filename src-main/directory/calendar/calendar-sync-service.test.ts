// The calendarSync contract service as the renderer reaches it: through the service host, with
// inputs validated and errors as values, over a real emulator.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CalendarEvent, CalendarSyncStatus } from '../../../src-shared/contract/directory';
import type { Result } from '../../../src-shared/contract/result';
import { createMemoryLogger } from '../../platform/logger';
import { createServiceHost, type ServiceHost } from '../../transport/service-host';
import { startTestDirectoryEmulator, type TestDirectoryEmulator } from '../emulator/test-support';
import { bindCalendarSync } from './calendar-sync-service';
import { calendarWriter, recordingClient } from './emulator-test-client';

describe('calendarSync service', () => {
  let emu: TestDirectoryEmulator;
  let dir: string;
  let host: ServiceHost;
  let closers: (() => void | Promise<void>)[];

  beforeEach(async () => {
    emu = await startTestDirectoryEmulator();
    dir = await mkdtemp(join(tmpdir(), 'calendar-service-'));
    closers = [];
    const logger = createMemoryLogger('warn');
    host = createServiceHost(logger);
    const { client } = recordingClient(emu);
    bindCalendarSync({
      ctx: { services: host, onClose: (close) => void closers.push(close) },
      client,
      databasePath: join(dir, 'data', 'directory', 'calendar.sqlite'),
      logger,
      defaults: { user: emu.user.id, intervalSeconds: 3600 },
    });
  });
  afterEach(async () => {
    for (const close of closers.reverse()) await close();
    await emu.close();
    await rm(dir, { recursive: true, force: true });
  });

  const call = <T>(method: string, input?: unknown) => host.call('calendarSync', method, input) as Promise<Result<T>>;

  it('answers bad input and calls out of order with clear errors', async () => {
    expect(await call('syncNow')).toMatchObject({ ok: false, error: { code: 'unavailable', message: 'calendar sync is stopped: start it first' } });
    expect(await call('start', { start: '2030-01-01T00:00:00Z' })).toMatchObject({ ok: false, error: { code: 'invalid_input', message: 'give both start and end of the window, or neither' } });
    expect(await call('start', { start: '2030-01-02T00:00:00Z', end: '2030-01-01T00:00:00Z' })).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    const badDate = await call('start', { start: 'next monday', end: '2030-01-01T00:00:00Z' });
    expect(badDate).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    expect(!badDate.ok && badDate.error.message).toContain('start');
    expect(await call('eventsInRange', { start: '2030-01-02T00:00:00Z', end: '2030-01-01T00:00:00Z' })).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    expect(await call('status')).toMatchObject({ ok: true, value: { state: 'stopped', target: null, rounds: 0 } });
  });

  it('synchronises, pushes onStatus and serves the events of a range', async () => {
    const writer = calendarWriter(recordingClient(emu).client, emu.user.id);
    await writer.create({ subject: 'Planning', start: '2030-01-02T09:00:00', end: '2030-01-02T10:00:00' });
    await writer.create({ subject: 'Review', start: '2030-01-20T09:00:00', end: '2030-01-20T10:00:00' });
    const pushed: CalendarSyncStatus[] = [];
    const subscribed = host.subscribe('calendarSync', 'onStatus', (status) => pushed.push(status as CalendarSyncStatus));
    expect(subscribed.ok).toBe(true);

    const started = await call<CalendarSyncStatus>('start', { start: '2030-01-01T00:00:00Z', end: '2030-02-01T00:00:00Z', pageSize: 1 });
    expect(started).toMatchObject({ ok: true, value: { target: { user: emu.user.id, start: '2030-01-01T00:00:00.000Z' }, pageSize: 1, intervalSeconds: 3600 } });
    const synced = await call<CalendarSyncStatus>('syncNow');
    expect(synced).toMatchObject({ ok: true, value: { state: 'idle', rounds: 1, eventsStored: 2, lastRound: { kind: 'full', pages: 2, added: 2 } } });
    expect(pushed.map((s) => s.state)).toEqual(expect.arrayContaining(['syncing', 'idle']));

    const firstWeek = await call<CalendarEvent[]>('eventsInRange', { start: '2030-01-01T00:00:00Z', end: '2030-01-08T00:00:00Z' });
    expect(firstWeek.ok && firstWeek.value.map((e) => [e.subject, e.start, e.end])).toEqual([['Planning', '2030-01-02T09:00:00.000Z', '2030-01-02T10:00:00.000Z']]);
    expect(firstWeek.ok && firstWeek.value[0]!.graph).toMatchObject({ '@odata.type': '#microsoft.graph.event', subject: 'Planning' });

    expect(await call('stop')).toMatchObject({ ok: true, value: { state: 'stopped', nextRoundAt: null } });
  });
});
