import type { EngineContext } from '../../engine/engine-context';
import { HttpError } from '../../platform/http/http-error';
import type { TaskRegistry } from '../core/task-registry';

/**
 * The go2rtc release whose HTTP API this relay answers, reported as `version` in GET /api:
 * go2rtc's clients decide from it whether they can work with the server (Home Assistant accepts
 * 1.9.13 up to, not including, 2.0.0). The app's own version is `app_version`.
 */
const GO2RTC_API_VERSION = '1.9.14';

export interface AppRoutesDeps {
  tasks: TaskRegistry;
  /** `port` is the bound port (it differs from `listen` when listen asks for port 0). */
  rtsp: { listen: string; default_query: string; port?: number };
  /** Source schemes the relay dials, for GET /api/schemes. */
  schemes: () => string[];
}

/** GET /api, GET /api/schemes, GET/DELETE /api/log, POST /api/exit, POST /api/restart, GET /api/stack. */
export function registerAppRoutes(ctx: EngineContext, deps: AppRoutesDeps): void {
  ctx.http.route(
    '/api',
    ({ req, res }) => {
      const host = req.headers.host ?? `${ctx.settings.api.host}:${ctx.server.port}`;
      res.writeHead(200, { 'Content-Type': 'application/json' });
      const { listen, default_query, port } = deps.rtsp;
      const rtsp = { listen: port ? listen.replace(/:\d+$/, `:${port}`) : listen, default_query };
      res.end(JSON.stringify({ config_path: ctx.config.path, host, rtsp, version: GO2RTC_API_VERSION, app_version: ctx.version }));
    },
    ['GET'],
  );

  // Home Assistant asks which schemes the server dials before it hands it a camera's URL.
  ctx.http.route(
    '/api/schemes',
    ({ res }) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(deps.schemes()));
    },
    ['GET'],
  );

  // go2rtc's log view: the latest lines as JSON lines; DELETE clears them.
  ctx.http.route(
    '/api/log',
    ({ req, res }) => {
      if (req.method === 'DELETE') {
        ctx.logs.clear();
        res.writeHead(200, { 'Content-Type': 'text/plain' }).end('OK');
        return;
      }
      res.writeHead(200, { 'Content-Type': 'application/jsonlines', 'Cache-Control': 'no-store' });
      res.end(ctx.logs.text());
    },
    ['GET', 'DELETE'],
  );

  ctx.http.route('/api/exit', ({ req, res, url }) => {
    if (req.method !== 'POST') throw new HttpError(400, 'exit needs POST');
    const raw = url.searchParams.get('code') ?? '0';
    const code = Number(raw);
    if (!/^\d+$/.test(raw) || code > 125) throw new HttpError(400, 'Code must be in the range [0, 125]');
    res.writeHead(200).end();
    setImmediate(() => ctx.requestExit(code));
  });

  ctx.http.route('/api/restart', ({ req, res }) => {
    if (req.method !== 'POST') throw new HttpError(400, 'restart needs POST');
    res.writeHead(200).end();
    setImmediate(() => ctx.requestRestart());
  });

  ctx.http.route(
    '/api/stack',
    ({ res }) => {
      res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end(deps.tasks.dump());
    },
    ['GET'],
  );
}
