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
import { resource, resourceNotFound, type GraphHandler, type GraphRoute } from './graph-route';
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
const EVENT_PROPS = [
  'id',
  'subject',
  'start',
  'end',
  'isAllDay',
  'type',
  'showAs',
  'importance',
  'sensitivity',
  'categories',
  'createdDateTime',
  'lastModifiedDateTime',
  'body',
  'bodyPreview',
  'location',
  'organizer',
  'recurrence',
  'seriesMasterId',
  'isCancelled',
  'changeKey',
  'originalStart',
];
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
    filter: {
      ...EVENT_FIELDS,
      isAllDay: (e) => e.isAllDay,
      type: (e) => e.type,
      showAs: (e) => e.showAs,
      importance: (e) => e.importance,
      sensitivity: (e) => e.sensitivity,
      seriesMasterId: (e) => e.seriesMasterId,
    },
    orderBy: EVENT_FIELDS,
    top: { default: request.prefer.maxPageSize ?? 10, max: 1000 },
  });
  reply(
    request,
    200,
    listBody(collection, page, (event) => event),
    headers,
  );
}

/** The delta function as SDKs write it: `delta`, `delta()`, `microsoft.graph.delta()`. */
const DELTA_FUNCTION = /^(microsoft\.graph\.)?delta(\(\))?$/;

/** Whose calendar a request reads or writes, once the caller's permission for it is checked, and how its events are shown. */
interface CalendarScope {
  owner: UserPrincipal;
  view: ViewZone;
  render: (instance: Parameters<typeof renderEvent>[0]) => EventJson;
  /** `@odata.context` of the owner's events. */
  collection: string;
}

/** The owner's calendar in its routes' words: `/me` (the signed-in user) or `/users/:user` (an id or UPN). */
function ownerOf(deps: CalendarDeps, request: GraphRequest): UserPrincipal {
  const user = request.params.user;
  if (user === undefined) return meOf(request.caller);
  const found = findUser(deps.principals, user);
  if (!found) throw new GraphError(404, 'ErrorInvalidUser', `The requested user '${user}' is invalid.`);
  return found;
}

function scopeOf(deps: CalendarDeps, request: GraphRequest): CalendarScope {
  const { caller, method } = request;
  const owner = ownerOf(deps, request);
  const writing = method !== 'GET';
  const other = caller.kind === 'user' && caller.user!.id !== owner.id;
  requirePermission(
    caller,
    'calendar',
    writing
      ? other
        ? PERMISSIONS.calendarWriteShared
        : PERMISSIONS.calendarWrite
      : other
        ? PERMISSIONS.calendarReadShared
        : PERMISSIONS.calendarRead,
  );
  const view = viewZone(request, deps.zones);
  return {
    owner,
    view,
    render: (instance) => renderEvent(instance, owner, view, deps.zones),
    collection: contextUrl(request, `users('${owner.id}')/events`),
  };
}

/**
 * /me/... and /users/{id|upn}/...: events (list, create, get, update, delete, a series'
 * instances), calendarView and calendarView/delta, each also under /calendar/. Another method on
 * an events path is 405; anything else under a calendar is not a resource, once the owner is
 * known (and, for events and calendarView, the caller may reach the calendar).
 */
export function calendarRoutes(deps: CalendarDeps): GraphRoute[] {
  /** A handler that runs once the caller may reach the calendar. */
  const scoped =
    (handler: (request: GraphRequest, scope: CalendarScope) => void | Promise<void>): GraphHandler =>
    (request) =>
      handler(request, scopeOf(deps, request));
  const notSupported = scoped(({ method }) => {
    throw new GraphError(405, 'ErrorInvalidRequest', `The ${method} method is not supported on this resource.`);
  });
  const notCalendar = scoped(({ pathname }) => {
    throw resourceNotFound(pathname);
  });
  const routes = (base: string): GraphRoute[] => [
    ...resource(
      `${base}/events`,
      {
        GET: scoped((request, { owner, view, render, collection }) =>
          replyPage(
            request,
            deps.events.list(owner.id).map((ev) => render(masterInstance(ev))),
            collection,
            preferenceApplied(request, view),
          ),
        ),
        POST: scoped(async (request, { owner, view, render, collection }) => {
          const created = deps.events.create(owner.id, await readJsonObject(request.req));
          reply(
            request,
            201,
            { '@odata.context': `${collection}/$entity`, ...render(masterInstance(created)) },
            preferenceApplied(request, view),
          );
        }),
      },
      notSupported,
    ),
    ...resource(
      `${base}/events/:id`,
      {
        GET: scoped((request, { owner, view, render, collection }) =>
          reply(
            request,
            200,
            { '@odata.context': `${collection}/$entity`, ...render(deps.events.get(owner.id, request.params.id!)) },
            preferenceApplied(request, view),
          ),
        ),
        PATCH: scoped(async (request, { owner, view, render, collection }) => {
          const updated = deps.events.update(owner.id, request.params.id!, await readJsonObject(request.req));
          reply(request, 200, { '@odata.context': `${collection}/$entity`, ...render(updated) }, preferenceApplied(request, view));
        }),
        DELETE: scoped((request, { owner }) => {
          deps.events.delete(owner.id, request.params.id!);
          reply(request, 204, undefined);
        }),
      },
      notSupported,
    ),
    ...resource(
      `${base}/events/:id/instances`,
      {
        GET: scoped((request, { owner, view, render, collection }) => {
          const window = parseWindow(request.query);
          const master = deps.events.get(owner.id, request.params.id!).master;
          reply(
            request,
            200,
            { '@odata.context': collection, value: instancesInWindow(master, window.start, window.end, deps.zones).map(render) },
            preferenceApplied(request, view),
          );
        }),
      },
      notSupported,
    ),
    { method: '*', path: `${base}/events/*`, handler: notSupported },
    ...resource(
      `${base}/calendarView`,
      {
        GET: scoped((request, { owner, view, render, collection }) => {
          const window = parseWindow(request.query);
          const all = deps.events
            .list(owner.id)
            .flatMap((ev) => instancesInWindow(ev, window.start, window.end, deps.zones))
            .sort((a, b) => a.startUtc - b.startUtc || a.id.localeCompare(b.id));
          replyPage(request, all.map(render), collection, preferenceApplied(request, view));
        }),
      },
      notCalendar,
    ),
    ...resource(
      `${base}/calendarView/:function`,
      {
        GET: scoped((request, scope) =>
          DELTA_FUNCTION.test(request.params.function!) ? replyDelta(deps, request, scope) : notCalendar(request),
        ),
      },
      notCalendar,
    ),
    { method: '*', path: `${base}/calendarView/*`, handler: notCalendar },
  ];
  /** Under a calendar's owner but no calendar resource: refused once the owner is known. */
  const notAResource: GraphHandler = (request) => {
    ownerOf(deps, request);
    throw resourceNotFound(request.pathname);
  };
  return [
    ...routes('/me'),
    ...routes('/me/calendar'),
    ...routes('/users/:user'),
    ...routes('/users/:user/calendar'),
    { method: '*', path: '/me/*', handler: notAResource },
    { method: '*', path: '/users/:user/*', handler: notAResource },
  ];
}

/** GET calendarView/delta: a page of changes in the window, with the next page's or the next round's link. */
function replyDelta(deps: CalendarDeps, request: GraphRequest, { owner, view }: CalendarScope): void {
  const pageSize = Math.min(request.prefer.maxPageSize ?? DEFAULT_DELTA_PAGE, MAX_DELTA_PAGE);
  const restartUrl = (start: string, end: string) =>
    `${request.origin}${request.pathname}?startDateTime=${encodeURIComponent(start)}&endDateTime=${encodeURIComponent(end)}`;
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
}
