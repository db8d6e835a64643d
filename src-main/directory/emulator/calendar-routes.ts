import { meOf, PERMISSIONS, requirePermission } from './access';
import { parseWindow } from './calendar-delta';
import type { CalendarDelta } from './calendar-delta';
import { DEFAULT_DELTA_PAGE, MAX_DELTA_PAGE } from './calendar-delta';
import { instancesInWindow, masterInstance } from './event-instances';
import type { EventService } from './event-service';
import { renderEvent, UTC_VIEW, type ViewZone } from './event-view';
import { GraphError } from './graph-error';
import { readJsonObject } from './graph-http';
import { listBody, queryList } from './list-query';
import { contextUrl, reply, type GraphRequest } from './graph-context';
import { findUser, type Principals, type UserPrincipal } from './principals';
import type { TimeZones } from './time-zones';

export interface CalendarDeps {
  principals: Principals;
  events: EventService;
  delta: CalendarDelta;
  zones: TimeZones;
}

/** The zone of `Prefer: outlook.timezone`, when it names one we know. */
function viewZone(request: GraphRequest, zones: TimeZones): ViewZone {
  const name = request.prefer.timeZone;
  const zone = name ? zones.resolve(name) : undefined;
  return name && zone ? { name, zone } : UTC_VIEW;
}

function preferenceApplied(request: GraphRequest, view: ViewZone, pageSize?: number): Record<string, string> {
  const applied: string[] = [];
  if (pageSize !== undefined && request.prefer.maxPageSize !== undefined) applied.push(`odata.maxpagesize=${pageSize}`);
  if (view !== UTC_VIEW) applied.push(`outlook.timezone="${view.name}"`);
  return applied.length > 0 ? { 'Preference-Applied': applied.join(', ') } : {};
}

type EventJson = Record<string, unknown>;
const part = (event: EventJson, key: string, inner: string) => (event[key] as Record<string, unknown> | undefined)?.[inner];
const EVENT_PROPS = ['id', 'subject', 'start', 'end', 'isAllDay', 'type', 'showAs', 'importance', 'sensitivity', 'categories', 'createdDateTime', 'lastModifiedDateTime', 'body', 'bodyPreview', 'location', 'organizer', 'recurrence', 'seriesMasterId', 'isCancelled', 'changeKey', 'originalStart'];
const EVENT_FIELDS: Record<string, (event: EventJson) => unknown> = {
  subject: (e) => e.subject,
  'start/dateTime': (e) => part(e, 'start', 'dateTime'),
  'end/dateTime': (e) => part(e, 'end', 'dateTime'),
  createdDateTime: (e) => e.createdDateTime,
  lastModifiedDateTime: (e) => e.lastModifiedDateTime,
};

/**
 * Outlook's list options on events and calendarView: $filter, $orderby, $count, $top (default
 * the maxpagesize preference, else 10; at most 1000 a page), $skip and the next link.
 */
function replyPage(request: GraphRequest, all: readonly EventJson[], collection: string, headers: Record<string, string>): void {
  const page = queryList(request, all, {
    type: 'event',
    properties: EVENT_PROPS,
    filter: { ...EVENT_FIELDS, isAllDay: (e) => e.isAllDay, type: (e) => e.type, showAs: (e) => e.showAs, importance: (e) => e.importance, sensitivity: (e) => e.sensitivity, seriesMasterId: (e) => e.seriesMasterId },
    orderBy: EVENT_FIELDS,
    top: { default: request.prefer.maxPageSize ?? 10, max: 1000 },
  });
  reply(request, 200, listBody(collection, page, (event) => event), headers);
}

/** The delta function as SDKs write it: `delta`, `delta()`, `microsoft.graph.delta()`. */
const DELTA_FUNCTION = /^(microsoft\.graph\.)?delta(\(\))?$/;

/**
 * /me/... and /users/{id|upn}/...: events, calendarView, calendarView/delta (and the same under
 * /calendar/). Returns false when the path is not a calendar path.
 */
export async function handleCalendar(deps: CalendarDeps, request: GraphRequest): Promise<boolean> {
  const { segments, caller, method } = request;
  let owner: UserPrincipal;
  let rest: string[];
  if (segments[0] === 'me') {
    if (segments.length === 1) return false;
    owner = meOf(caller);
    rest = segments.slice(1);
  } else if (segments[0] === 'users' && segments.length >= 3) {
    const found = findUser(deps.principals, segments[1]!);
    if (!found) throw new GraphError(404, 'ErrorInvalidUser', `The requested user '${segments[1]}' is invalid.`);
    owner = found;
    rest = segments.slice(2);
  } else return false;
  if (rest[0] === 'calendar' && rest.length > 1) rest = rest.slice(1);
  if (rest[0] !== 'events' && rest[0] !== 'calendarView') return false;

  const writing = method !== 'GET';
  const other = caller.kind === 'user' && caller.user!.id !== owner.id;
  requirePermission(caller, 'calendar', writing ? (other ? PERMISSIONS.calendarWriteShared : PERMISSIONS.calendarWrite) : other ? PERMISSIONS.calendarReadShared : PERMISSIONS.calendarRead);
  const view = viewZone(request, deps.zones);
  const render = (instance: Parameters<typeof renderEvent>[0]) => renderEvent(instance, owner, view, deps.zones);
  const collection = contextUrl(request, `users('${owner.id}')/events`);

  if (rest[0] === 'calendarView' && rest.length === 2 && DELTA_FUNCTION.test(rest[1]!) && method === 'GET') {
    const pageSize = Math.min(request.prefer.maxPageSize ?? DEFAULT_DELTA_PAGE, MAX_DELTA_PAGE);
    const restartUrl = (start: string, end: string) => `${request.origin}${request.pathname}?startDateTime=${encodeURIComponent(start)}&endDateTime=${encodeURIComponent(end)}`;
    const page = deps.delta.page({ owner, query: request.query, pageSize, view, restartUrl });
    const link = (name: string, token: string) => `${request.origin}${request.pathname}?${name}=${encodeURIComponent(token)}`;
    reply(
      request,
      200,
      {
        '@odata.context': contextUrl(request, 'Collection(event)'),
        ...(page.skipToken ? { '@odata.nextLink': link('$skiptoken', page.skipToken) } : {}),
        ...(page.deltaToken ? { '@odata.deltaLink': link('$deltatoken', page.deltaToken) } : {}),
        value: page.value,
      },
      preferenceApplied(request, view, pageSize),
    );
    return true;
  }

  if (rest[0] === 'calendarView' && rest.length === 1 && method === 'GET') {
    const window = parseWindow(request.query);
    const all = deps.events
      .list(owner.id)
      .flatMap((ev) => instancesInWindow(ev, window.start, window.end, deps.zones))
      .sort((a, b) => a.startUtc - b.startUtc || a.id.localeCompare(b.id));
    replyPage(request, all.map(render), collection, preferenceApplied(request, view));
    return true;
  }

  if (rest[0] !== 'events') return false;
  if (rest.length === 1 && method === 'GET') {
    replyPage(request, deps.events.list(owner.id).map((ev) => render(masterInstance(ev))), collection, preferenceApplied(request, view));
    return true;
  }
  if (rest.length === 1 && method === 'POST') {
    const created = deps.events.create(owner.id, await readJsonObject(request.req));
    reply(request, 201, { '@odata.context': `${collection}/$entity`, ...render(masterInstance(created)) }, preferenceApplied(request, view));
    return true;
  }
  if (rest.length === 2) {
    const id = rest[1]!;
    if (method === 'GET') {
      reply(request, 200, { '@odata.context': `${collection}/$entity`, ...render(deps.events.get(owner.id, id)) }, preferenceApplied(request, view));
      return true;
    }
    if (method === 'PATCH') {
      const updated = deps.events.update(owner.id, id, await readJsonObject(request.req));
      reply(request, 200, { '@odata.context': `${collection}/$entity`, ...render(updated) }, preferenceApplied(request, view));
      return true;
    }
    if (method === 'DELETE') {
      deps.events.delete(owner.id, id);
      reply(request, 204, undefined);
      return true;
    }
  }
  if (rest.length === 3 && rest[2] === 'instances' && method === 'GET') {
    const window = parseWindow(request.query);
    const master = deps.events.get(owner.id, rest[1]!).master;
    reply(request, 200, { '@odata.context': collection, value: instancesInWindow(master, window.start, window.end, deps.zones).map(render) }, preferenceApplied(request, view));
    return true;
  }
  throw new GraphError(405, 'ErrorInvalidRequest', `The ${method} method is not supported on this resource.`);
}
