import { describe, expect, it } from 'vitest';
import { DeltaPageError, parseDeltaPage } from './delta-page';

const event = {
  '@odata.type': '#microsoft.graph.event',
  id: 'AAMk1',
  changeKey: 'ck1',
  lastModifiedDateTime: '2025-03-01T08:00:00Z',
  subject: 'Standup',
  start: { dateTime: '2025-03-02T09:00:00.0000000', timeZone: 'UTC' },
  end: { dateTime: '2025-03-02T09:15:00.0000000', timeZone: 'UTC' },
};

describe('parseDeltaPage', () => {
  it('reads events, removals and the link that continues the round', () => {
    const page = parseDeltaPage({
      value: [event, { '@odata.type': '#microsoft.graph.event', id: 'AAMk2', '@removed': { reason: 'deleted' } }],
      '@odata.nextLink': 'http://127.0.0.1:1/v1.0/me/calendarView/delta?$skiptoken=abc',
    });
    expect(page.nextLink).toContain('$skiptoken=abc');
    expect(page.deltaLink).toBeNull();
    expect(page.items[0]).toMatchObject({
      kind: 'event',
      id: 'AAMk1',
      startMs: Date.UTC(2025, 2, 2, 9),
      endMs: Date.UTC(2025, 2, 2, 9, 15),
      changeKey: 'ck1',
    });
    expect(JSON.parse((page.items[0] as { json: string }).json)).toEqual(event);
    expect(page.items[1]).toEqual({ kind: 'removed', id: 'AAMk2' });
  });

  it('marks an event without a usable time as unplaceable', () => {
    const page = parseDeltaPage({ value: [{ id: 'x', start: { dateTime: 'soon' } }], '@odata.deltaLink': 'd' });
    expect(page.items).toEqual([{ kind: 'unplaceable', id: 'x' }]);
  });

  it('refuses whole a reply that is not a delta page', () => {
    expect(() => parseDeltaPage({ value: [] })).toThrow(/neither/);
    expect(() => parseDeltaPage({ value: [], '@odata.nextLink': 'a', '@odata.deltaLink': 'b' })).toThrow(/both/);
    expect(() => parseDeltaPage({ '@odata.deltaLink': 'b' })).toThrow(DeltaPageError);
    expect(() => parseDeltaPage({ value: [{ subject: 'no id' }], '@odata.deltaLink': 'b' })).toThrow(/entry 0 has no id/);
  });
});
