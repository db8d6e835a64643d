import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpError } from './http-error';
import type { Logger } from '../logger';
import { createRepeatFilter, type RepeatFilter } from '../repeat-filter';
import { createRouteTable, type RouteSpec } from './route-table';

export interface RouteRequest {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  /** The route's `:name` parameters, percent-decoded; `*` is the rest of the path as sent. */
  params: Readonly<Record<string, string>>;
}

export type RouteHandler = (request: RouteRequest) => void | Promise<void>;

/** One route of the API server: a method (or several, or `*`), a path pattern (route-table.ts) and its handler. */
export interface HttpRoute extends RouteSpec {
  handler: RouteHandler;
  /**
   * The handler checks the API login itself, in its protocol's own way (ONVIF's WS-Security),
   * so the server does not ask for HTTP Basic first.
   */
  ownAuth?: boolean;
}

/**
 * The API server's routes. Each module hands its table of routes over at start
 * (`ctx.http.add(streamsRoutes(...))`); the router is an instance, never a global. A path no
 * route has answers 404, a known path with another method 405 with `Allow`, both as go2rtc
 * answers errors (text and a newline).
 */
export interface HttpRouter {
  add(routes: readonly HttpRoute[]): void;
  /** Whether the route that answers this request checks the login itself (see `HttpRoute.ownAuth`). */
  authenticatesItself(method: string, pathname: string): boolean;
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
}

export interface RouterOptions {
  /**
   * While this is pending (the engine's modules still starting), a request answered 404 (no
   * route, or the console's catch-all `/*` finding no file) waits for it and is then routed
   * again: a module that has not added its routes or streams yet is not a 404 (`/api` a moment
   * after the server listens). What is already served (the page, its assets) is not held.
   */
  startingUntil?: Promise<unknown>;
}

export function createRouter(logger: Logger, options: RouterOptions = {}): HttpRouter {
  const failures = createFailureLog(logger);
  let starting: Promise<void> | undefined;
  const clear = () => void (starting = undefined);
  starting = options.startingUntil?.then(clear, clear);
  const table = createRouteTable<HttpRoute>([], { decode: 'params' });
  const match = (method: string, pathname: string) => {
    try {
      return table.match(method, pathname);
    } catch (error) {
      if (error instanceof URIError) throw new HttpError(400, `malformed percent escape in ${pathname}`);
      throw error;
    }
  };

  return {
    add: (routes) => table.add(routes),
    authenticatesItself(method, pathname) {
      try {
        const found = match(method, pathname);
        return found.kind === 'found' && found.route.ownAuth === true;
      } catch {
        return false;
      }
    },
    async handle(req, res) {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const method = req.method ?? 'GET';
      const dispatch = async () => {
        const found = match(method, url.pathname);
        if (found.kind === 'not-found') throw new HttpError(404, `not found: ${url.pathname}`);
        if (found.kind === 'method-not-allowed') {
          res.setHeader('Allow', found.allowed.join(', '));
          throw new HttpError(405, `method ${method} not allowed on ${url.pathname}`);
        }
        await found.route.handler({ req, res, url, params: found.params });
      };
      try {
        await dispatch().catch(async (error: unknown) => {
          const waiting = starting;
          if (!waiting || !(error instanceof HttpError) || error.status !== 404 || res.headersSent) throw error;
          await waiting;
          await dispatch();
        });
      } catch (error) {
        sendError(res, error, failures);
      }
    },
  };
}

/**
 * How failed requests are logged: a fault (a bug, an unexpected exception, a 500) at ERROR each
 * time; an expected refusal (404 for a stream that is not there, 502/503/504 for a source that
 * is down) at WARN once per path and cause within an hour, since every viewer of a dead camera
 * gets the same one; other refusals (400, 401, 403) only at DEBUG.
 */
export interface FailureLog {
  failed(res: ServerResponse, error: unknown): void;
}

const EXPECTED_REFUSALS = new Set([404, 502, 503, 504]);

export function createFailureLog(logger: Logger, repeats: RepeatFilter = createRepeatFilter()): FailureLog {
  return {
    failed(res, error) {
      const status = error instanceof HttpError ? error.status : 500;
      const message = error instanceof Error ? error.message : String(error);
      // The path without its query: a query may carry a source URL with credentials.
      const request = res.req as IncomingMessage | undefined;
      const what = `${request?.method ?? '?'} ${(request?.url ?? '').split('?')[0] || '?'}`;
      if (status === 500 || status > 504) logger.error(`request failed: ${what}`, { status, error: message });
      else if (!EXPECTED_REFUSALS.has(status)) logger.debug(`request refused: ${what}`, { status, error: message });
      else if (repeats.isNew(`${status} ${what} ${message}`))
        logger.warn(`request refused: ${what} (said once an hour for the same cause)`, { status, error: message });
    },
  };
}

/** go2rtc answers errors as text/plain with a trailing newline; clients expect that shape. */
export function sendError(res: ServerResponse, error: unknown, failures: FailureLog): void {
  const status = error instanceof HttpError ? error.status : 500;
  const message = error instanceof Error ? error.message : String(error);
  failures.failed(res, error);
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' });
  res.end(message + '\n');
}
