import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpError } from './http-error';
import type { Logger } from '../logger';
import { createRepeatFilter, type RepeatFilter } from '../repeat-filter';

export interface RouteRequest {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
}

export type RouteHandler = (request: RouteRequest) => void | Promise<void>;

/**
 * Routes by exact path (any method, or the listed ones) or by path prefix (`/onvif/`).
 * Modules register their paths at start; the router is an instance, never a global.
 */
export interface HttpRouter {
  /**
   * Exact path. `methods` limits the methods; a known path with another method answers 405.
   * One path may have several handlers for different methods (GET /api/stream.mjpeg watches,
   * POST uploads), each registered by its own module.
   */
  route(path: string, handler: RouteHandler, methods?: readonly string[]): void;
  /**
   * Every path that starts with `prefix`; the longest matching prefix wins. `ownAuth`: the
   * handler checks the API login itself, in its protocol's own way (ONVIF's WS-Security), so
   * the server does not ask for HTTP Basic first.
   */
  prefix(prefix: string, handler: RouteHandler, options?: { ownAuth?: boolean }): void;
  /** Whether the handler of this path checks the login itself (see `prefix`). */
  authenticatesItself(pathname: string): boolean;
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
}

interface ExactRoute {
  handler: RouteHandler;
  methods?: readonly string[];
}

export function createRouter(logger: Logger): HttpRouter {
  const failures = createFailureLog(logger);
  const exact = new Map<string, ExactRoute[]>();
  const prefixes: Array<{ prefix: string; handler: RouteHandler; ownAuth: boolean }> = [];

  const find = (pathname: string, method: string): ExactRoute | undefined => {
    const hits = exact.get(pathname);
    if (hits) {
      const match = hits.find((r) => !r.methods || r.methods.includes(method));
      return match ?? { handler: () => undefined, methods: hits.flatMap((r) => r.methods ?? []) };
    }
    const byPrefix = prefixes.find((p) => pathname.startsWith(p.prefix));
    return byPrefix ? { handler: byPrefix.handler } : undefined;
  };

  return {
    route(path, handler, methods) {
      const routes = exact.get(path) ?? [];
      const overlaps = routes.some((r) => !r.methods || !methods || r.methods.some((m) => methods.includes(m)));
      if (overlaps) throw new Error(`route ${path} registered twice for the same method`);
      exact.set(path, [...routes, { handler, methods }]);
    },
    prefix(prefix, handler, options) {
      prefixes.push({ prefix, handler, ownAuth: options?.ownAuth === true });
      prefixes.sort((a, b) => b.prefix.length - a.prefix.length);
    },
    authenticatesItself(pathname) {
      return !exact.has(pathname) && prefixes.find((p) => pathname.startsWith(p.prefix))?.ownAuth === true;
    },
    async handle(req, res) {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const route = find(url.pathname, req.method ?? 'GET');
      try {
        if (!route) throw new HttpError(404, `not found: ${url.pathname}`);
        if (route.methods && !route.methods.includes(req.method ?? 'GET')) {
          res.setHeader('Allow', route.methods.join(', '));
          throw new HttpError(405, `method ${req.method} not allowed on ${url.pathname}`);
        }
        await route.handler({ req, res, url });
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
      else if (repeats.isNew(`${status} ${what} ${message}`)) logger.warn(`request refused: ${what} (said once an hour for the same cause)`, { status, error: message });
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
