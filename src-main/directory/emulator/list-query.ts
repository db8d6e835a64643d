import type { GraphRequest } from './graph-context';
import { badRequest } from './graph-error';
import { compareValues, matchesFilter, parseFilter } from './odata-filter';
import { canonicalName } from './property-names';

/** What one collection answers of OData's list options, the way Graph's service behind it does. */
export interface ListRules<T> {
  /** The Graph type, for messages: `user`. */
  type: string;
  /** Every property of the type (tells "cannot filter or sort on it" from "no such property"). */
  properties: readonly string[];
  /**
   * A directory object collection (users, administrative units, roles): only skip tokens page
   * it, `$count`, `$search`, `ne`/`not`/`endswith` and sorting a filtered list need
   * `ConsistencyLevel: eventual`, and refusals are `Request_UnsupportedQuery`.
   */
  directory?: boolean;
  /** Paths `$filter` may name, and where an item keeps each; without it `$filter` is refused. */
  filter?: Record<string, (item: T) => unknown>;
  /** Properties `$orderby` may name; without it `$orderby` is refused. */
  orderBy?: Record<string, (item: T) => unknown>;
  /** Properties `$search="property:words"` may name (directory advanced queries). */
  search?: Record<string, (item: T) => unknown>;
  /** `$top` when none is asked, and the most a page holds. */
  top: { default: number; max: number };
}

export interface ListPage<T> {
  value: T[];
  /** `@odata.count` when asked for (and, on directory objects, allowed). */
  count?: number;
  nextLink?: string;
}

/** The system query options a list takes; `$select` and `$expand` are read by the routes. */
const KNOWN_OPTIONS = new Set(['$select', '$expand', '$filter', '$orderby', '$top', '$skip', '$skiptoken', '$count', '$search', '$format']);

const unsupported = (rules: { directory?: boolean | undefined }, message: string) =>
  badRequest(rules.directory ? 'Request_UnsupportedQuery' : 'BadRequest', message);

function readTop<T>(rules: ListRules<T>, text: string | null): number {
  if (text === null) return rules.top.default;
  const n = Number(text);
  if (rules.directory && (!Number.isInteger(n) || n < 1 || n > rules.top.max))
    throw badRequest(
      'Request_UnsupportedQuery',
      `Invalid page size specified: '${text}'. Must be between 1 and ${rules.top.max} inclusive.`,
    );
  if (!Number.isInteger(n) || n < 0)
    throw badRequest('BadRequest', `Invalid value '${text}' for query option '$top': expected a non-negative integer.`);
  // Outlook and entitlement management cap a page rather than refuse a large $top.
  return Math.min(n, rules.top.max);
}

/** Skip tokens are opaque to clients; here they carry the offset of the next page. */
const skipToken = (offset: number) => `RC1${Buffer.from(JSON.stringify({ o: offset })).toString('base64url')}`;

function readSkipToken<T>(rules: ListRules<T>, token: string): number {
  try {
    const { o } = JSON.parse(Buffer.from(token.slice(3), 'base64url').toString('utf8')) as { o?: unknown };
    if (token.startsWith('RC1') && typeof o === 'number' && Number.isInteger(o) && o >= 0) return o;
  } catch {
    // refused below
  }
  throw rules.directory
    ? badRequest('Directory_ExpiredPageToken', 'The specified page token value has expired and can no longer be included in your request.')
    : badRequest('BadRequest', 'The $skiptoken value is not valid.');
}

function readOrderBy<T>(rules: ListRules<T>, text: string): { read: (item: T) => unknown; descending: boolean }[] {
  return text.split(',').map((part) => {
    const m = /^\s*([A-Za-z_][A-Za-z0-9_/]*)(?:\s+(asc|desc))?\s*$/i.exec(part);
    if (!m) throw badRequest('BadRequest', `Invalid $orderby clause '${part.trim()}': expected a property name, then asc or desc.`);
    const name = m[1]!;
    const known = rules.orderBy ? canonicalName(name, Object.keys(rules.orderBy)) : undefined;
    const read = known === undefined ? undefined : rules.orderBy?.[known];
    if (!read) {
      if (!canonicalName(name.split('/')[0]!, rules.properties))
        throw badRequest('BadRequest', `Could not find a property named '${name}' on type 'microsoft.graph.${rules.type}'.`);
      throw unsupported(
        rules,
        rules.orderBy ? `Sorting by the property '${name}' is not supported.` : `$orderby is not supported on ${rules.type} lists.`,
      );
    }
    return { read, descending: m[2]?.toLowerCase() === 'desc' };
  });
}

/** `$search="displayName:ada" AND "mail:example"`: each clause a property and words its value contains. */
function readSearch<T>(rules: ListRules<T>, text: string): (item: T) => boolean {
  const clauses = text.split(/\s+(AND|OR)\s+/);
  const tests: ((item: T) => boolean)[] = [];
  const joins: string[] = [];
  for (const [index, clause] of clauses.entries()) {
    if (index % 2 === 1) {
      joins.push(clause);
      continue;
    }
    const m = /^"([A-Za-z]+):([^"]*)"$/.exec(clause.trim());
    if (!m)
      throw badRequest(
        'Request_UnsupportedQuery',
        `Syntax error: the $search clause '${clause.trim()}' is not "property:words" in double quotes.`,
      );
    const read = rules.search?.[m[1]!];
    if (!read)
      throw badRequest(
        'Request_UnsupportedQuery',
        `Unsupported or invalid query filter clause specified for property '${m[1]}' of resource '${rules.type}'.`,
      );
    const words = m[2]!.toLowerCase().split(/\s+/).filter(Boolean);
    tests.push((item) => {
      const value = String(read(item) ?? '').toLowerCase();
      const tokens = value.split(/[^\p{L}\p{N}]+/u);
      // Graph's directory search matches words by their beginning.
      return words.every((word) => tokens.some((token) => token.startsWith(word)) || value.startsWith(word));
    });
  }
  return (item) => tests.slice(1).reduce((acc, test, i) => (joins[i] === 'OR' ? acc || test(item) : acc && test(item)), tests[0]!(item));
}

/**
 * Applies `$filter`, `$search`, `$orderby`, `$count`, `$top` and `$skiptoken` (and `$skip`
 * where the service takes it) to a whole list, answering one page and the link to the next.
 * Anything the collection's service refuses is refused with its error, never ignored.
 */
export function queryList<T>(request: GraphRequest, all: readonly T[], rules: ListRules<T>): ListPage<T> {
  const { query } = request;
  for (const key of query.keys())
    if (key.startsWith('$') && !KNOWN_OPTIONS.has(key.toLowerCase()))
      throw badRequest('BadRequest', `The query parameter '${key}' is not supported.`);
  const advanced = String(request.req.headers.consistencylevel ?? '').toLowerCase() === 'eventual';
  const filterText = query.get('$filter');
  const searchText = query.get('$search');
  const orderText = query.get('$orderby');
  const skipText = query.get('$skip');

  if (rules.directory && skipText !== null) throw badRequest('Request_BadRequest', "'$skip' is not supported by the service.");
  if (filterText !== null && !rules.filter) throw unsupported(rules, `$filter is not supported on ${rules.type} lists.`);
  if (searchText !== null) {
    if (!rules.search) throw unsupported(rules, `$search is not supported on ${rules.type} lists.`);
    if (!advanced)
      throw badRequest(
        'Request_UnsupportedQuery',
        "Request with $search query parameter only works through MSGraph with a special request header: 'ConsistencyLevel: eventual'",
      );
  }
  if (rules.directory && orderText !== null && (filterText !== null || searchText !== null) && !advanced)
    throw badRequest('Request_UnsupportedQuery', 'Sorting not supported for current query.');

  const filter =
    filterText === null
      ? undefined
      : parseFilter(filterText, {
          type: rules.type,
          paths: Object.keys(rules.filter!),
          properties: rules.properties,
          directory: rules.directory,
          advanced,
        });
  const search = searchText === null ? undefined : readSearch(rules, searchText.trim());
  const order = orderText === null ? [] : readOrderBy(rules, orderText);
  const top = readTop(rules, query.get('$top'));

  let matching = all.filter(
    (item) => (!filter || matchesFilter(filter, (path) => rules.filter![path]!(item))) && (!search || search(item)),
  );
  if (order.length > 0)
    matching = [...matching].sort((a, b) => {
      for (const { read, descending } of order) {
        const c = compareValues(read(a), read(b));
        if (c !== 0) return descending ? -c : c;
      }
      return 0;
    });

  const tokenText = query.get('$skiptoken') ?? query.get('$skipToken');
  let offset = tokenText !== null ? readSkipToken(rules, tokenText) : 0;
  if (skipText !== null) {
    const skip = Number(skipText);
    if (!Number.isInteger(skip) || skip < 0)
      throw badRequest('BadRequest', `Invalid value '${skipText}' for query option '$skip': expected a non-negative integer.`);
    offset += skip;
  }
  const value = matching.slice(offset, offset + top);
  let nextLink: string | undefined;
  if (offset + top < matching.length && top > 0) {
    const next = new URLSearchParams(query);
    for (const key of ['$skip', '$skiptoken', '$skipToken']) next.delete(key);
    next.set('$skiptoken', skipToken(offset + top));
    // `$` is left as it is, as in Graph's own links (`?$top=2&$skiptoken=...`).
    nextLink = `${request.origin}${request.pathname}?${next.toString().replace(/%24/g, '$')}`;
  }
  const countAsked = query.get('$count')?.toLowerCase() === 'true';
  // Without the header Graph's directory answers the list without a count.
  const count = countAsked && (!rules.directory || advanced) ? matching.length : undefined;
  return { value, ...(count !== undefined ? { count } : {}), ...(nextLink ? { nextLink } : {}) };
}

/** The list's body: context, count when asked, the page, the next link. */
export function listBody<T>(context: string, page: ListPage<T>, render: (item: T) => unknown): Record<string, unknown> {
  return {
    '@odata.context': context,
    ...(page.count !== undefined ? { '@odata.count': page.count } : {}),
    value: page.value.map(render),
    ...(page.nextLink ? { '@odata.nextLink': page.nextLink } : {}),
  };
}

/**
 * `GET /users/$count` and the like: the number alone as text/plain. Directory objects answer
 * it only with `ConsistencyLevel: eventual`, as Graph does.
 */
export function countOf<T>(request: GraphRequest, all: readonly T[], rules: ListRules<T>): number {
  if (rules.directory && String(request.req.headers.consistencylevel ?? '').toLowerCase() !== 'eventual')
    throw badRequest('Request_BadRequest', '$count is not currently supported.');
  const query = new URLSearchParams(request.query);
  for (const key of ['$top', '$skip', '$skiptoken', '$orderby', '$select', '$count']) query.delete(key);
  return queryList({ ...request, query }, all, { ...rules, top: { default: Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER } }).value
    .length;
}
