import { badRequest, GraphError, unknownProperty } from './graph-error';
import { parseRecurrence, type Recurrence } from './recurrence';
import { parseWallTime, type TimeZones } from './time-zones';

export interface DateTimeTimeZone {
  dateTime: string;
  timeZone: string;
}

/** The properties a client sets on an event (Graph names), as last written. */
export interface EventProps {
  subject: string | null;
  body: { contentType: 'text' | 'html'; content: string };
  start: DateTimeTimeZone;
  end: DateTimeTimeZone;
  isAllDay: boolean;
  location: Record<string, unknown>;
  locations: Record<string, unknown>[];
  attendees: Record<string, unknown>[];
  categories: string[];
  importance: string;
  sensitivity: string;
  showAs: string;
  isReminderOn: boolean;
  reminderMinutesBeforeStart: number;
  recurrence: Recurrence | null;
  transactionId: string | null;
  isOnlineMeeting: boolean;
  onlineMeetingProvider: string;
  responseRequested: boolean;
  allowNewTimeProposals: boolean;
  hideAttendees: boolean;
}

/** A changed occurrence of a series, keyed in the master by its original start. */
interface EventException {
  props: Partial<EventProps>;
  startUtc: number;
  endUtc: number;
  changeKey: string;
  lastModifiedDateTime: string;
}

/** A single event or a series master with its exceptions and cancelled occurrences. */
export interface StoredEvent {
  id: string;
  createdDateTime: string;
  lastModifiedDateTime: string;
  changeKey: string;
  iCalUId: string;
  props: EventProps;
  startUtc: number;
  endUtc: number;
  /** Original start (ISO, seconds, Z) → the changes made to that occurrence. */
  exceptions: Record<string, EventException>;
  /** Original starts of deleted occurrences. */
  cancelled: string[];
}

const EVENT_TYPE = 'microsoft.graph.event';

const WRITABLE = new Set<string>([
  'subject',
  'body',
  'start',
  'end',
  'isAllDay',
  'location',
  'locations',
  'attendees',
  'categories',
  'importance',
  'sensitivity',
  'showAs',
  'isReminderOn',
  'reminderMinutesBeforeStart',
  'recurrence',
  'transactionId',
  'isOnlineMeeting',
  'onlineMeetingProvider',
  'responseRequested',
  'allowNewTimeProposals',
  'hideAttendees',
]);

/** Read-only properties a client may send back as it read them; Graph ignores them. */
const IGNORED = new Set<string>([
  '@odata.type',
  '@odata.etag',
  '@odata.context',
  'id',
  'createdDateTime',
  'lastModifiedDateTime',
  'changeKey',
  'iCalUId',
  'uid',
  'webLink',
  'organizer',
  'type',
  'seriesMasterId',
  'bodyPreview',
  'responseStatus',
  'originalStartTimeZone',
  'originalEndTimeZone',
  'originalStart',
  'isOrganizer',
  'isCancelled',
  'isDraft',
  'hasAttachments',
  'onlineMeeting',
  'onlineMeetingUrl',
]);

const ENUMS: Record<string, readonly string[]> = {
  importance: ['low', 'normal', 'high'],
  sensitivity: ['normal', 'personal', 'private', 'confidential'],
  showAs: ['free', 'tentative', 'busy', 'oof', 'workingElsewhere', 'unknown'],
  onlineMeetingProvider: ['unknown', 'teamsForBusiness', 'skypeForBusiness', 'skypeForConsumer'],
};

const emptyLocation = (): Record<string, unknown> => ({
  displayName: '',
  locationType: 'default',
  uniqueIdType: 'unknown',
  address: {},
  coordinates: {},
});

export function defaultProps(): Omit<EventProps, 'start' | 'end'> {
  return {
    subject: null,
    body: { contentType: 'html', content: '' },
    isAllDay: false,
    location: emptyLocation(),
    locations: [],
    attendees: [],
    categories: [],
    importance: 'normal',
    sensitivity: 'normal',
    showAs: 'busy',
    isReminderOn: true,
    reminderMinutesBeforeStart: 15,
    recurrence: null,
    transactionId: null,
    isOnlineMeeting: false,
    onlineMeetingProvider: 'unknown',
    responseRequested: true,
    allowNewTimeProposals: true,
    hideAttendees: false,
  };
}

/** Exchange keeps at most 255 characters of a subject (and of a transactionId). */
const MAX_SUBJECT_LENGTH = 255;
/**
 * Graph documents no limit for an event body below the 4 MB request; a bound keeps one event,
 * and so one delta page (see MAX_DELTA_PAGE_BYTES), small enough to build in memory.
 */
const MAX_BODY_BYTES = 1024 * 1024;

const tooLong = (name: string, limit: number, unit: string): GraphError =>
  badRequest('ErrorPropertyTooBig', `The value of property '${name}' is too long: at most ${limit} ${unit}.`);

const typeError = (name: string, expected: string): GraphError =>
  badRequest('BadRequest', `Invalid value for property '${name}': expected ${expected}.`);

/**
 * Checks a POST/PATCH body property by property and returns the writable ones it sets.
 * Unknown properties fail as Graph fails them (RequestBodyRead); read-only ones are ignored.
 */
export function parseEventPatch(body: Record<string, unknown>, zones: TimeZones): Partial<EventProps> & { recurrenceInput?: unknown } {
  const out: Partial<EventProps> & { recurrenceInput?: unknown } = {};
  const set = out as Record<string, unknown>;
  for (const [name, value] of Object.entries(body)) {
    if (IGNORED.has(name) || name.startsWith('@odata.')) continue;
    if (!WRITABLE.has(name)) throw unknownProperty(name, EVENT_TYPE);
    switch (name) {
      case 'subject':
      case 'transactionId':
        if (value !== null && typeof value !== 'string') throw typeError(name, 'a string');
        if (typeof value === 'string' && value.length > MAX_SUBJECT_LENGTH) throw tooLong(name, MAX_SUBJECT_LENGTH, 'characters');
        set[name] = value;
        break;
      case 'body': {
        const b = value as { contentType?: unknown; content?: unknown } | null;
        if (!b || typeof b !== 'object') throw typeError(name, 'an itemBody object');
        const contentType = b.contentType ?? 'text';
        if (contentType !== 'text' && contentType !== 'html') throw typeError('body.contentType', "'text' or 'html'");
        if (b.content !== undefined && b.content !== null && typeof b.content !== 'string') throw typeError('body.content', 'a string');
        if (typeof b.content === 'string' && Buffer.byteLength(b.content) > MAX_BODY_BYTES)
          throw tooLong('body.content', MAX_BODY_BYTES, 'bytes');
        out.body = { contentType, content: (b.content as string | null | undefined) ?? '' };
        break;
      }
      case 'start':
      case 'end':
        set[name] = parseDateTimeTimeZone(name, value, zones);
        break;
      case 'isAllDay':
      case 'isReminderOn':
      case 'isOnlineMeeting':
      case 'responseRequested':
      case 'allowNewTimeProposals':
      case 'hideAttendees':
        if (typeof value !== 'boolean') throw typeError(name, 'true or false');
        set[name] = value;
        break;
      case 'reminderMinutesBeforeStart':
        if (!Number.isInteger(value) || (value as number) < 0) throw typeError(name, 'a non-negative integer');
        set[name] = value;
        break;
      case 'location':
        if (value === null) out.location = emptyLocation();
        else if (typeof value !== 'object' || Array.isArray(value)) throw typeError(name, 'a location object');
        else out.location = { ...emptyLocation(), ...(value as Record<string, unknown>) };
        break;
      case 'locations':
      case 'attendees':
        if (!Array.isArray(value) || value.some((v) => typeof v !== 'object' || v === null)) throw typeError(name, 'an array of objects');
        set[name] = value;
        break;
      case 'categories':
        if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) throw typeError(name, 'an array of strings');
        set[name] = value;
        break;
      case 'recurrence':
        // Checked once start is known (the range defaults to the start's date and zone).
        out.recurrenceInput = value;
        break;
      default: {
        const allowed = ENUMS[name]!;
        if (typeof value !== 'string' || !allowed.includes(value)) throw typeError(name, `one of ${allowed.join(', ')}`);
        set[name] = value;
      }
    }
  }
  return out;
}

function parseDateTimeTimeZone(name: string, value: unknown, zones: TimeZones): DateTimeTimeZone {
  const v = value as { dateTime?: unknown; timeZone?: unknown } | null;
  if (!v || typeof v !== 'object' || typeof v.dateTime !== 'string')
    throw typeError(name, 'a dateTimeTimeZone object with dateTime and timeZone');
  const timeZone = typeof v.timeZone === 'string' && v.timeZone !== '' ? v.timeZone : 'UTC';
  if (!parseWallTime(v.dateTime))
    throw badRequest(
      'BadRequest',
      `Invalid value for property '${name}.dateTime': '${v.dateTime}' is not a date-time such as 2024-05-01T09:00:00.`,
    );
  if (!zones.resolve(timeZone))
    throw new GraphError(
      400,
      'TimeZoneNotSupportedException',
      `A valid TimeZone value must be specified. The following TimeZone value is not supported: '${timeZone}'.`,
    );
  return { dateTime: v.dateTime, timeZone };
}

/** The instant of a dateTimeTimeZone (an explicit Z or offset in dateTime wins over timeZone). */
export function instantOf(value: DateTimeTimeZone, zones: TimeZones): number {
  const parsed = parseWallTime(value.dateTime)!;
  const w = parsed.wall;
  if (parsed.offsetMinutes !== undefined)
    return Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second, w.ms) - parsed.offsetMinutes * 60_000;
  return zones.toUtc(w, zones.resolve(value.timeZone) ?? 'UTC');
}

/** Applies the recurrence text of a patch once the event's start is known. */
export function resolveRecurrence(input: unknown, start: DateTimeTimeZone): Recurrence | null {
  return parseRecurrence(input, start.timeZone, start.dateTime.slice(0, 10));
}
