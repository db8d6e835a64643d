import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphCall, startTestDirectoryEmulator, userTokenForm, type TestDirectoryEmulator } from './test-support';

const at = (dateTime: string, timeZone = 'UTC') => ({ dateTime, timeZone });

describe('events and calendarView', () => {
  let t: TestDirectoryEmulator;
  let token: string;
  const call = (path: string, init?: Parameters<typeof graphCall>[3]) => graphCall(t.url, token, path, init);

  beforeAll(async () => {
    t = await startTestDirectoryEmulator();
    token = await t.token(userTokenForm());
  });
  afterAll(() => t.close());

  it('creates, reads, updates and deletes a single event', async () => {
    const created = await call('/me/events', {
      method: 'POST',
      body: {
        subject: 'Review',
        body: { contentType: 'html', content: '<p>Agenda</p>' },
        start: at('2025-04-01T10:00:00'),
        end: at('2025-04-01T11:00:00'),
        location: { displayName: 'Room 1' },
      },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      subject: 'Review',
      type: 'singleInstance',
      bodyPreview: 'Agenda',
      isDraft: false,
      isReminderOn: true,
      reminderMinutesBeforeStart: 15,
      originalStartTimeZone: 'UTC',
      responseStatus: { response: 'organizer' },
    });
    expect(created.body.start).toEqual({ dateTime: '2025-04-01T10:00:00.0000000', timeZone: 'UTC' });
    expect(created.body['@odata.etag']).toBe(`W/"${created.body.changeKey}"`);
    const id = created.body.id as string;
    const patched = await call(`/me/events/${id}`, {
      method: 'PATCH',
      body: { subject: 'Review (moved)', start: at('2025-04-01T12:00:00'), end: at('2025-04-01T13:00:00') },
    });
    expect(patched.body).toMatchObject({ subject: 'Review (moved)', start: { dateTime: '2025-04-01T12:00:00.0000000' } });
    expect(patched.body.changeKey).not.toBe(created.body.changeKey);
    expect((await call(`/users/${t.user.id}/events/${id}`)).body.subject).toBe('Review (moved)');
    expect((await call(`/me/events/${id}`, { method: 'DELETE' })).status).toBe(204);
    const gone = await call(`/me/events/${id}`);
    expect(gone.status).toBe(404);
    expect(gone.body.error.code).toBe('ErrorItemNotFound');
  });

  it("refuses unknown properties, bad times and unknown zones with Graph's codes", async () => {
    const base = { subject: 'x', start: at('2025-04-02T10:00:00'), end: at('2025-04-02T11:00:00') };
    const unknown = await call('/me/events', { method: 'POST', body: { ...base, colour: 'red' } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toMatchObject({
      code: 'RequestBodyRead',
      message: expect.stringContaining("The property 'colour' does not exist on type 'microsoft.graph.event'"),
    });
    const zone = await call('/me/events', { method: 'POST', body: { ...base, start: at('2025-04-02T10:00:00', 'Mars/Olympus') } });
    expect(zone.body.error.code).toBe('TimeZoneNotSupportedException');
    const backwards = await call('/me/events', { method: 'POST', body: { ...base, end: at('2025-04-02T09:00:00') } });
    expect(backwards.status).toBe(400);
    expect((await call('/me/events', { method: 'POST', body: '{"subject":' })).body.error.code).toBe('BadRequest');
  });

  it('expands a weekly series in calendarView across a DST change, with exceptions and deletions', async () => {
    const series = await call('/me/events', {
      method: 'POST',
      body: {
        subject: 'Standup',
        start: at('2025-03-03T09:00:00', 'Pacific Standard Time'),
        end: at('2025-03-03T09:15:00', 'Pacific Standard Time'),
        recurrence: {
          pattern: { type: 'weekly', interval: 1, daysOfWeek: ['monday'] },
          range: { type: 'endDate', startDate: '2025-03-03', endDate: '2025-03-24' },
        },
      },
    });
    expect(series.body.type).toBe('seriesMaster');
    expect(series.body.recurrence.range).toMatchObject({
      type: 'endDate',
      recurrenceTimeZone: 'Pacific Standard Time',
      numberOfOccurrences: 0,
    });
    const view = await call('/me/calendarView?startDateTime=2025-03-01T00:00:00Z&endDateTime=2025-04-01T00:00:00Z');
    const standups = (
      view.body.value as {
        subject: string;
        type: string;
        seriesMasterId: string;
        start: { dateTime: string };
        originalStart: string;
        id: string;
      }[]
    ).filter((e) => e.subject === 'Standup');
    expect(standups.map((e) => [e.type, e.start.dateTime])).toEqual([
      ['occurrence', '2025-03-03T17:00:00.0000000'],
      ['occurrence', '2025-03-10T16:00:00.0000000'], // PDT from March 9
      ['occurrence', '2025-03-17T16:00:00.0000000'],
      ['occurrence', '2025-03-24T16:00:00.0000000'],
    ]);
    expect(standups[1]!.seriesMasterId).toBe(series.body.id);
    expect(standups[1]!.originalStart).toBe('2025-03-10T16:00:00Z');

    const moved = await call(`/me/events/${standups[1]!.id}`, {
      method: 'PATCH',
      body: { subject: 'Standup (late)', start: at('2025-03-10T18:00:00') },
    });
    expect(moved.body).toMatchObject({ type: 'exception', subject: 'Standup (late)', end: { dateTime: '2025-03-10T18:15:00.0000000' } });
    expect((await call(`/me/events/${standups[2]!.id}`, { method: 'DELETE' })).status).toBe(204);
    const after = await call('/me/calendarView?startDateTime=2025-03-01T00:00:00Z&endDateTime=2025-04-01T00:00:00Z', {
      headers: { Prefer: 'outlook.timezone="Pacific Standard Time"' },
    });
    expect(after.headers.get('preference-applied')).toBe('outlook.timezone="Pacific Standard Time"');
    expect(
      (after.body.value as { subject: string; type: string; start: { dateTime: string; timeZone: string } }[])
        .filter((e) => e.subject.startsWith('Standup'))
        .map((e) => [e.type, e.start.dateTime, e.start.timeZone]),
    ).toEqual([
      ['occurrence', '2025-03-03T09:00:00.0000000', 'Pacific Standard Time'],
      ['exception', '2025-03-10T11:00:00.0000000', 'Pacific Standard Time'],
      ['occurrence', '2025-03-24T09:00:00.0000000', 'Pacific Standard Time'],
    ]);
    expect((await call(`/me/events/${standups[2]!.id}`)).status).toBe(404);
  });

  it('daily and monthly series with numbered and noEnd ranges, paged with $top', async () => {
    await call('/me/events', {
      method: 'POST',
      body: {
        subject: 'Daily',
        start: at('2025-06-01T08:00:00'),
        end: at('2025-06-01T08:30:00'),
        recurrence: {
          pattern: { type: 'daily', interval: 1 },
          range: { type: 'numbered', startDate: '2025-06-01', numberOfOccurrences: 3 },
        },
      },
    });
    await call('/me/events', {
      method: 'POST',
      body: {
        subject: 'Monthly',
        start: at('2025-06-15T12:00:00'),
        end: at('2025-06-15T13:00:00'),
        recurrence: {
          pattern: { type: 'absoluteMonthly', interval: 1, dayOfMonth: 15 },
          range: { type: 'noEnd', startDate: '2025-06-15' },
        },
      },
    });
    const first = await call('/me/calendarView?startDateTime=2025-06-01T00:00:00&endDateTime=2025-09-01T00:00:00&$top=4');
    expect(first.body.value.map((e: { subject: string }) => e.subject)).toEqual(['Daily', 'Daily', 'Daily', 'Monthly']);
    const second = await call(first.body['@odata.nextLink'] as string);
    expect(second.body.value.map((e: { start: { dateTime: string } }) => e.start.dateTime.slice(0, 10))).toEqual([
      '2025-07-15',
      '2025-08-15',
    ]);
    expect(second.body['@odata.nextLink']).toBeUndefined();
    const missing = await call('/me/calendarView');
    expect(missing.body.error).toMatchObject({ code: 'ErrorInvalidParameter' });
  });
});
