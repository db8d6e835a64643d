import { describe, expect, it } from 'vitest';
import type { CalendarSyncStatus } from '@shared/contract/directory';
import { eventsOfDay, roundCountsText, roundKindText, stateLabel, untilText, weekOf } from './sync-status-text';

const status = (over: Partial<CalendarSyncStatus>): CalendarSyncStatus => ({
  state: 'stopped',
  target: null,
  intervalSeconds: null,
  pageSize: null,
  nextRoundAt: null,
  rounds: 0,
  fullSyncs: 0,
  throttled: 0,
  lastRound: null,
  totals: { pages: 0, added: 0, updated: 0, removed: 0 },
  currentRound: null,
  eventsStored: 0,
  lastSuccessAt: null,
  lastError: null,
  ...over,
});

describe('calendar sync status in words', () => {
  it('names the state the way the user thinks of it', () => {
    expect(stateLabel(status({}))).toBe('Not started');
    expect(stateLabel(status({ target: { user: 'me', start: 'a', end: 'b' } }))).toBe('Paused');
    expect(stateLabel(status({ state: 'idle', nextRoundAt: '2030-01-01T00:00:00Z' }))).toBe('Waiting for the next round');
    expect(stateLabel(status({ state: 'syncing' }))).toBe('Syncing');
    expect(stateLabel(status({ state: 'error' }))).toBe('Error');
  });

  it('says why a full round ran, and what a round did', () => {
    expect(roundKindText({ kind: 'full', reason: 'expired' })).toBe('full: resync after the delta token expired (410)');
    expect(roundKindText({ kind: 'full', reason: 'connection' })).toBe('full: resync: the directory connection changed');
    expect(roundKindText({ kind: 'incremental' })).toBe('incremental');
    expect(roundCountsText({ added: 3, updated: 1, removed: 5, pages: 1 })).toBe('+3 added · 1 updated · −5 removed in 1 page');
  });

  it('counts down to the next round', () => {
    const now = Date.parse('2030-01-01T00:00:00Z');
    expect(untilText('2030-01-01T00:00:40Z', now)).toBe('in 40 s');
    expect(untilText('2030-01-01T00:05:00Z', now)).toBe('in 5 min');
    expect(untilText('2029-12-31T23:59:00Z', now)).toBe('now');
    expect(untilText(null, now)).toBeUndefined();
  });

  it('lays a week out from Monday and puts each event on the days it covers', () => {
    const week = weekOf(new Date(2030, 0, 3)); // a Thursday; that week's Monday is 31 December
    expect(week.days.map((d) => d.getDate())).toEqual([31, 1, 2, 3, 4, 5, 6]);
    const events = [
      { start: new Date(2030, 0, 1, 9).toISOString(), end: new Date(2030, 0, 1, 10).toISOString() },
      { start: new Date(2030, 0, 2).toISOString(), end: new Date(2030, 0, 4).toISOString() },
    ];
    expect(eventsOfDay(events, week.days[1]!)).toHaveLength(1);
    expect(eventsOfDay(events, week.days[2]!)).toHaveLength(1);
    expect(eventsOfDay(events, week.days[3]!)).toHaveLength(1);
    // An event ending at midnight does not show on the next day.
    expect(eventsOfDay(events, week.days[4]!)).toHaveLength(0);
  });
});
