import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CalendarStore } from './calendar-store';
import { parseDeltaPage, type DeltaPage } from './delta-page';

const target = { user: 'me', windowStart: '2025-03-01T00:00:00.000Z', windowEnd: '2025-04-01T00:00:00.000Z' };
const settings = { intervalSeconds: 60, pageSize: 2 };
const now = new Date('2025-03-10T12:00:00Z');

function event(id: string, day: number, modified = '2025-02-01T00:00:00Z', subject = id) {
  const at = (h: number) => ({
    dateTime: `2025-03-${String(day).padStart(2, '0')}T${String(h).padStart(2, '0')}:00:00.0000000`,
    timeZone: 'UTC',
  });
  return { id, subject, changeKey: `${id}-${modified}`, lastModifiedDateTime: modified, start: at(9), end: at(10) };
}
const removed = (id: string) => ({ id, '@removed': { reason: 'deleted' } });
const page = (value: unknown[], link: { next?: string; delta?: string }): DeltaPage =>
  parseDeltaPage({
    value,
    ...(link.next ? { '@odata.nextLink': link.next } : {}),
    ...(link.delta ? { '@odata.deltaLink': link.delta } : {}),
  });
const ids = (store: CalendarStore, viewId: number) => store.allEvents(viewId).map((e) => e.id);

describe('CalendarStore', () => {
  let dir: string;
  let store: CalendarStore;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'calendar-store-'));
    store = new CalendarStore(join(dir, 'calendar.sqlite'));
  });
  afterEach(() => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('makes its file with the first view, reading as an empty copy before', () => {
    const file = join(dir, 'calendar.sqlite');
    expect(store.currentView()).toBeNull();
    expect(store.latestViewOf('me')).toBeNull();
    expect(store.getView(1)).toBeNull();
    expect(store.roundHistory(1)).toEqual([]);
    expect(store.searchSubject(1, 'a', 10)).toEqual([]);
    expect(store.eventsInRange(1, 0, Date.now())).toEqual([]);
    expect(store.allEvents(1)).toEqual([]);
    expect(store.countEvents(1)).toBe(0);
    expect(existsSync(file)).toBe(false);
    const view = store.openView(target, settings);
    expect(existsSync(file)).toBe(true);
    expect(store.currentView()).toMatchObject({ id: view.id, active: true });
  });

  it('saves the deltaLink only when the round completes, with the nextLink as the resume point before', () => {
    const view = store.openView(target, settings);
    store.beginRound(view.id, 'full', now.toISOString());
    const first = store.applyPage(view.id, page([event('a', 2), event('b', 3)], { next: 'N1' }), now);
    expect(first).toMatchObject({ added: 2, completed: null });
    expect(store.getView(view.id)).toMatchObject({ deltaLink: null, nextLink: 'N1', round: { kind: 'full', pages: 1, added: 2 } });

    const last = store.applyPage(view.id, page([event('c', 4)], { delta: 'D1' }), now);
    expect(last.completed).toMatchObject({ kind: 'full', pages: 2, added: 3, updated: 0, removed: 0 });
    const done = store.getView(view.id)!;
    expect(done).toMatchObject({ deltaLink: 'D1', nextLink: null, round: null });
    expect(done.counters).toMatchObject({ rounds: 1, fullSyncs: 1, totals: { pages: 2, added: 3 }, lastSuccessAt: now.toISOString() });
    expect(ids(store, view.id)).toEqual(['a', 'b', 'c']);
  });

  it('applies a replayed page as no change, and ignores an older copy of an event', () => {
    const view = store.openView(target, settings);
    store.beginRound(view.id, 'incremental', now.toISOString());
    const p = page([event('a', 2, '2025-03-05T00:00:00Z', 'new title'), removed('gone')], { next: 'N' });
    store.applyPage(view.id, p, now);
    const before = store.allEvents(view.id);
    const again = store.applyPage(view.id, p, now);
    expect(again).toMatchObject({ added: 0, updated: 0, removed: 0, unchanged: 1 });
    expect(store.allEvents(view.id)).toEqual(before);

    const older = store.applyPage(view.id, page([event('a', 2, '2025-03-01T00:00:00Z', 'old title')], { next: 'N' }), now);
    expect(older).toMatchObject({ updated: 0, stale: 1 });
    expect(JSON.parse(store.allEvents(view.id)[0]!.json).subject).toBe('new title');

    const movedAway = {
      ...event('a', 2, '2025-03-02T00:00:00Z'),
      start: { dateTime: '2025-06-01T09:00:00' },
      end: { dateTime: '2025-06-01T10:00:00' },
    };
    expect(store.applyPage(view.id, page([movedAway], { next: 'N' }), now)).toMatchObject({ removed: 0, stale: 1 });

    const newer = store.applyPage(view.id, page([event('a', 2, '2025-03-06T00:00:00Z', 'newest')], { next: 'N' }), now);
    expect(newer).toMatchObject({ updated: 1 });
  });

  it('removes deleted events and events that moved out of the window', () => {
    const view = store.openView(target, settings);
    store.beginRound(view.id, 'incremental', now.toISOString());
    store.applyPage(view.id, page([event('a', 2), event('b', 3), event('c', 4)], { next: 'N' }), now);
    const moved = {
      ...event('b', 3, '2025-03-07T00:00:00Z'),
      start: { dateTime: '2025-05-01T09:00:00', timeZone: 'UTC' },
      end: { dateTime: '2025-05-01T10:00:00', timeZone: 'UTC' },
    };
    const outcome = store.applyPage(
      view.id,
      page(
        [
          removed('a'),
          moved,
          removed('never-seen'),
          { ...event('x', 1), start: { dateTime: '2025-02-01T09:00:00' }, end: { dateTime: '2025-02-01T10:00:00' } },
        ],
        { next: 'N' },
      ),
      now,
    );
    expect(outcome).toMatchObject({ added: 0, removed: 2 });
    expect(ids(store, view.id)).toEqual(['c']);
  });

  it('sweeps at the end of a full round the events it did not deliver', () => {
    const view = store.openView(target, settings);
    store.beginRound(view.id, 'full', now.toISOString());
    store.applyPage(view.id, page([event('a', 2), event('b', 3), event('c', 4)], { delta: 'D1' }), now);
    // The token expired; meanwhile b was deleted. A second full round delivers a and c only.
    store.clearDeltaState(view.id);
    store.beginRound(view.id, 'full', now.toISOString());
    store.applyPage(view.id, page([event('a', 2)], { next: 'N' }), now);
    expect(ids(store, view.id)).toEqual(['a', 'b', 'c']); // still readable while the round runs
    const last = store.applyPage(view.id, page([event('c', 4)], { delta: 'D2' }), now);
    expect(last.completed).toMatchObject({ kind: 'full', added: 0, removed: 1 });
    expect(ids(store, view.id)).toEqual(['a', 'c']);
    expect(store.getView(view.id)!.counters).toMatchObject({ rounds: 2, fullSyncs: 2 });
  });

  it('answers range queries on UTC spans and keeps state across a reopen', () => {
    const view = store.openView(target, settings);
    store.beginRound(view.id, 'full', now.toISOString());
    store.applyPage(view.id, page([event('a', 2), event('b', 3), event('c', 4)], { delta: 'D1' }), now);
    const inRange = store.eventsInRange(view.id, Date.UTC(2025, 2, 2, 9, 30), Date.UTC(2025, 2, 3, 9, 0));
    expect(inRange.map((e) => e.id)).toEqual(['a']);
    store.close();
    store = new CalendarStore(join(dir, 'calendar.sqlite'));
    expect(store.currentView()).toMatchObject({ id: view.id, deltaLink: 'D1', active: true, settings });
    expect(store.countEvents(view.id)).toBe(3);
  });

  it('keeps one view: opening another window drops the old one and its events', () => {
    const view = store.openView(target, settings);
    store.beginRound(view.id, 'full', now.toISOString());
    store.applyPage(view.id, page([event('a', 2)], { delta: 'D1' }), now);
    const other = store.openView({ ...target, windowEnd: '2025-05-01T00:00:00.000Z' }, settings);
    expect(other.id).not.toBe(view.id);
    expect(store.getView(view.id)).toBeNull();
    expect(store.countEvents(view.id)).toBe(0);
    expect(store.latestViewOf('me')!.id).toBe(other.id);
  });
});
