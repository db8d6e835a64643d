import { randomBytes } from 'node:crypto';
import { badRequest, GraphError, notFound } from './graph-error';
import type { GraphStore } from './graph-store';
import { defaultProps, instantOf, parseEventPatch, resolveRecurrence, type EventProps, type StoredEvent } from './event-model';
import { findOccurrence, masterInstance, parseOccurrenceId, type EventInstance } from './event-instances';
import type { TimeZones } from './time-zones';

const newChangeKey = (): string => randomBytes(16).toString('base64');

/** Opaque ids shaped like Outlook's (base64 text, no '_' so occurrence ids can be told apart). */
const newEventId = (): string => 'AAMkAG' + randomBytes(33).toString('base64').replace(/[+/]/g, 'A');

/**
 * Calendar writes and reads for one store. Every write goes through GraphStore.writeEvent in a
 * transaction, so it bumps the change sequence that calendarView/delta reads.
 */
export class EventService {
  constructor(
    private readonly store: GraphStore,
    private readonly zones: TimeZones,
    private readonly clock: () => number,
  ) {}

  private load(userId: string, id: string): StoredEvent {
    const row = this.store.event(id);
    if (!row || row.user_id !== userId) throw notFound('calendar', id);
    return JSON.parse(row.data) as StoredEvent;
  }

  private save(userId: string, ev: StoredEvent): void {
    this.store.writeEvent(userId, ev.id, JSON.stringify(ev));
  }

  /** Every event and series master of a user (what GET /events lists). */
  list(userId: string): StoredEvent[] {
    return this.store.eventsOf(userId).map((row) => JSON.parse(row.data) as StoredEvent);
  }

  /** An event, a series master, or one occurrence/exception by its id. */
  get(userId: string, id: string): EventInstance {
    const occurrence = parseOccurrenceId(id);
    if (!occurrence) return masterInstance(this.load(userId, id));
    const master = this.load(userId, occurrence.masterId);
    const found = findOccurrence(master, occurrence.originalStart, this.zones);
    if (!found) throw notFound('calendar', id);
    return found;
  }

  create(userId: string, body: Record<string, unknown>): StoredEvent {
    const patch = parseEventPatch(body, this.zones);
    if (!patch.start || !patch.end)
      throw badRequest('ErrorInvalidRequest', 'An event needs both start and end (dateTimeTimeZone objects).');
    const { recurrenceInput, ...set } = patch;
    const props: EventProps = { ...defaultProps(), ...set, start: patch.start, end: patch.end };
    props.recurrence = resolveRecurrence(recurrenceInput, props.start);
    const now = new Date(this.clock()).toISOString();
    const ev: StoredEvent = {
      id: newEventId(),
      createdDateTime: now,
      lastModifiedDateTime: now,
      changeKey: newChangeKey(),
      iCalUId: '040000008200E00074C5B7101A82E00800000000' + randomBytes(16).toString('hex').toUpperCase(),
      props,
      ...this.times(props),
      exceptions: {},
      cancelled: [],
    };
    this.store.transaction(() => this.save(userId, ev));
    return ev;
  }

  update(userId: string, id: string, body: Record<string, unknown>): EventInstance {
    const patch = parseEventPatch(body, this.zones);
    const now = new Date(this.clock()).toISOString();
    return this.store.transaction(() => {
      const occurrence = parseOccurrenceId(id);
      if (occurrence) {
        const master = this.load(userId, occurrence.masterId);
        const current = findOccurrence(master, occurrence.originalStart, this.zones);
        if (!current) throw notFound('calendar', id);
        if (patch.recurrenceInput !== undefined)
          throw badRequest('ErrorInvalidRequest', 'An occurrence of a series cannot have its own recurrence.');
        const { recurrenceInput: _ignored, ...set } = patch;
        const previous = master.exceptions[occurrence.originalStart]?.props ?? {};
        const props = { ...previous, ...set };
        // A moved occurrence keeps the duration it had unless both ends are given.
        const startUtc = set.start ? instantOf(set.start, this.zones) : current.startUtc;
        const endUtc = set.end
          ? instantOf(set.end, this.zones)
          : set.start
            ? startUtc + (current.endUtc - current.startUtc)
            : current.endUtc;
        if (endUtc < startUtc) throw badRequest('ErrorInvalidRequest', 'The end of an event cannot be before its start.');
        master.exceptions[occurrence.originalStart] = { props, startUtc, endUtc, changeKey: newChangeKey(), lastModifiedDateTime: now };
        master.lastModifiedDateTime = now;
        this.save(userId, master);
        return findOccurrence(master, occurrence.originalStart, this.zones)!;
      }
      const ev = this.load(userId, id);
      const { recurrenceInput, ...set } = patch;
      const props: EventProps = { ...ev.props, ...set };
      const seriesChanged = recurrenceInput !== undefined || set.start !== undefined || set.end !== undefined;
      if (recurrenceInput !== undefined) props.recurrence = resolveRecurrence(recurrenceInput, props.start);
      ev.props = props;
      Object.assign(ev, this.times(props));
      // Outlook drops a series' exceptions when its pattern or times change.
      if (seriesChanged && props.recurrence) {
        ev.exceptions = {};
        ev.cancelled = [];
      }
      ev.changeKey = newChangeKey();
      ev.lastModifiedDateTime = now;
      this.save(userId, ev);
      return masterInstance(ev);
    });
  }

  delete(userId: string, id: string): void {
    this.store.transaction(() => {
      const occurrence = parseOccurrenceId(id);
      if (!occurrence) {
        this.load(userId, id);
        this.store.writeEvent(userId, id, null);
        return;
      }
      const master = this.load(userId, occurrence.masterId);
      if (!findOccurrence(master, occurrence.originalStart, this.zones)) throw notFound('calendar', id);
      delete master.exceptions[occurrence.originalStart];
      master.cancelled.push(occurrence.originalStart);
      master.lastModifiedDateTime = new Date(this.clock()).toISOString();
      this.save(userId, master);
    });
  }

  private times(props: EventProps): { startUtc: number; endUtc: number } {
    const startUtc = instantOf(props.start, this.zones);
    const endUtc = instantOf(props.end, this.zones);
    if (endUtc < startUtc) throw badRequest('ErrorInvalidRequest', 'The end of an event cannot be before its start.');
    if (props.isAllDay && (props.start.dateTime.slice(11, 19) !== '00:00:00' || props.end.dateTime.slice(11, 19) !== '00:00:00'))
      throw new GraphError(400, 'ErrorInvalidRequest', 'An all-day event must start and end at midnight in its time zone.');
    return { startUtc, endUtc };
  }
}
