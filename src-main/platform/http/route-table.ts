/**
 * The one route matcher of every HTTP service here (the API on `api.listen`, the Kodo and the
 * Graph emulators): a table of routes, each a method, a path pattern and what the service
 * attaches (its handler), and a match that says which route answers a request, or that none
 * does (404), or that the path is known but not for this method (405). Each service answers
 * those two the way its protocol does (go2rtc's text, Kodo's JSON, Graph's error object).
 *
 * Patterns: `/api/streams` (literal segments), `/stat/:entry` (`:name` is one non-empty
 * segment), `/onvif/*` (`*`, last only: the rest of the path after that slash, as a prefix).
 *
 * Which route answers: the most specific pattern that matches the path, comparing segment by
 * segment (a literal before a parameter before `*`), so `/users/$count` wins over `/users/:id`
 * and `/console/preview/*` over `/*`. Among the routes of that pattern, the one naming the
 * method, else one registered for any method (`*`); when neither, the path answers 405 with
 * the methods it takes, and a less specific pattern is not tried.
 */

/** One method (`GET`), several, or `*` for any. */
type RouteMethods = string | readonly string[];

/** What the table reads of a route; services add their handler and options to it. */
export interface RouteSpec {
  method: RouteMethods;
  path: string;
  /** Literal segments match in any case (Graph's `/v1.0/$metadata`); otherwise case counts. */
  ignoreCase?: boolean;
}

export interface RouteTableOptions {
  /**
   * `keep` (default): every slash counts: `/api/x/` is not `/api/x`, and `/onvif/*` matches
   * `/onvif/` but not `/onvif`, as a path prefix would. `drop`: empty segments are ignored,
   * as Kodo and Graph read paths: `//stat/e/` is `/stat/e`, and `/publish/*` matches `/publish`.
   */
  emptySegments?: 'keep' | 'drop';
  /**
   * `none` (default): segments and parameters as sent. `params`: literals match the path as
   * sent and `:name` parameters are percent-decoded. `path`: every segment is decoded before
   * matching (Graph's). A malformed escape that has to be decoded throws URIError.
   */
  decode?: 'none' | 'params' | 'path';
}

export type RouteMatch<R> =
  | {
      kind: 'found';
      route: R;
      /**
       * `:name` parameters by name; `*` is the rest of the path, its segments joined by `/`
       * (left as sent under `decode: 'params'`: a prefix's handler reads it as a path).
       */
      params: Readonly<Record<string, string>>;
    }
  | { kind: 'method-not-allowed'; allowed: readonly string[] }
  | { kind: 'not-found' };

export interface RouteTable<R extends RouteSpec> {
  /** Adds routes; a pattern that already has a route for one of the methods throws. */
  add(routes: readonly R[]): void;
  match(method: string, pathname: string): RouteMatch<R>;
}

type Segment = { kind: 'literal'; text: string } | { kind: 'param'; name: string } | { kind: 'rest' };

interface Compiled<R> {
  route: R;
  segments: Segment[];
  methods: readonly string[] | 'any';
  /** The pattern with parameter names left out: two routes with the same key share a path. */
  key: string;
}

/** A path's segments: without the leading slash, split at every other one. */
export function pathSegments(pathname: string, emptySegments: 'keep' | 'drop' = 'keep'): string[] {
  const parts = pathname.replace(/^\//, '').split('/');
  return emptySegments === 'drop' ? parts.filter((part) => part !== '') : parts;
}

const RANK = { literal: 0, param: 1, rest: 2 } as const;

function compile<R extends RouteSpec>(route: R, emptySegments: 'keep' | 'drop'): Compiled<R> {
  if (!route.path.startsWith('/')) throw new Error(`route path ${route.path} must start with /`);
  const parts = pathSegments(route.path, emptySegments);
  const segments = parts.map((part, i): Segment => {
    if (part === '*') {
      if (i !== parts.length - 1) throw new Error(`route path ${route.path}: * must be the last segment`);
      return { kind: 'rest' };
    }
    if (part.startsWith(':')) {
      const name = part.slice(1);
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new Error(`route path ${route.path}: bad parameter name ${part}`);
      return { kind: 'param', name };
    }
    return { kind: 'literal', text: route.ignoreCase ? part.toLowerCase() : part };
  });
  const methods = route.method === '*' ? 'any' : typeof route.method === 'string' ? [route.method] : route.method;
  if (methods !== 'any' && (methods.length === 0 || methods.includes('*')))
    throw new Error(`route ${route.path}: name methods, or * alone for any`);
  const key = `${route.ignoreCase ? 'i' : 'c'} ${segments.map((s) => (s.kind === 'literal' ? `=${s.text}` : s.kind === 'param' ? ':' : '*')).join('/')}`;
  return { route, segments, methods, key };
}

/** Negative when `a` is the more specific pattern; a pattern that ends first is, as `/a` over `/a/*`. */
function compareSpecificity(a: Segment[], b: Segment[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const diff = RANK[a[i]!.kind] - RANK[b[i]!.kind];
    if (diff !== 0) return diff;
  }
  return a.length - b.length;
}

/** The parameters when the pattern matches the segments, else undefined. */
function bind(
  pattern: Segment[],
  path: readonly string[],
  ignoreCase: boolean,
  emptySegments: 'keep' | 'drop',
): Record<string, string> | undefined {
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i++) {
    const segment = pattern[i]!;
    if (segment.kind === 'rest') {
      // With every slash counting, `/a/*` needs the slash after `a`: at least one (maybe empty) segment.
      if (emptySegments === 'keep' && i >= path.length) return undefined;
      params['*'] = path.slice(i).join('/');
      return params;
    }
    const part = path[i];
    if (part === undefined) return undefined;
    if (segment.kind === 'param') {
      if (part === '') return undefined;
      params[segment.name] = part;
    } else if ((ignoreCase ? part.toLowerCase() : part) !== segment.text) return undefined;
  }
  return path.length === pattern.length ? params : undefined;
}

const overlaps = (a: Compiled<unknown>['methods'], b: Compiled<unknown>['methods']) =>
  a === 'any' || b === 'any' ? a === b : a.some((method) => b.includes(method));

export function createRouteTable<R extends RouteSpec>(routes: readonly R[] = [], options: RouteTableOptions = {}): RouteTable<R> {
  const emptySegments = options.emptySegments ?? 'keep';
  const decode = options.decode ?? 'none';
  const compiled: Compiled<R>[] = [];

  const table: RouteTable<R> = {
    add(more) {
      for (const route of more) {
        const next = compile(route, emptySegments);
        const taken = compiled.find((c) => c.key === next.key && overlaps(c.methods, next.methods));
        if (taken) throw new Error(`route ${describe(route)} registered twice (first as ${describe(taken.route)})`);
        compiled.push(next);
      }
    },
    match(method, pathname) {
      const raw = pathSegments(pathname, emptySegments);
      const segments = decode === 'path' ? raw.map((part) => decodeURIComponent(part)) : raw;
      let best: Array<{ entry: Compiled<R>; params: Record<string, string> }> = [];
      for (const entry of compiled) {
        const params = bind(entry.segments, segments, entry.route.ignoreCase === true, emptySegments);
        if (!params) continue;
        const order = best.length === 0 ? -1 : compareSpecificity(entry.segments, best[0]!.entry.segments);
        if (order < 0) best = [{ entry, params }];
        else if (order === 0) best.push({ entry, params });
      }
      if (best.length === 0) return { kind: 'not-found' };
      const hit =
        best.find((b) => b.entry.methods !== 'any' && b.entry.methods.includes(method)) ?? best.find((b) => b.entry.methods === 'any');
      if (!hit) return { kind: 'method-not-allowed', allowed: [...new Set(best.flatMap((b) => b.entry.methods as readonly string[]))] };
      if (decode !== 'params') return { kind: 'found', route: hit.entry.route, params: hit.params };
      const decoded: Record<string, string> = {};
      for (const [name, value] of Object.entries(hit.params)) decoded[name] = name === '*' ? value : decodeURIComponent(value);
      return { kind: 'found', route: hit.entry.route, params: decoded };
    },
  };
  table.add(routes);
  return table;
}

function describe(route: RouteSpec): string {
  return `${typeof route.method === 'string' ? route.method : route.method.join(',')} ${route.path}`;
}
