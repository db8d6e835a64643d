import type { EngineContext } from '../../engine/engine-context';
import { HttpError } from '../../platform/http/http-error';
import type { HttpRoute } from '../../platform/http/router';
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

/** POST /api/exit and /api/restart take POST; go2rtc answers any other method 400, not 405. */
const needsPost = (what: string) => () => {
  throw new HttpError(400, `${what} needs POST`);
};

/** GET /api, GET /api/schemes, GET/DELETE /api/log, POST /api/exit, POST /api/restart, GET /api/stack. */
export function appRoutes(ctx: EngineContext, deps: AppRoutesDeps): HttpRoute[] {
  return [
    {
      method: 'GET',
      path: '/api',
      handler: ({ req, res }) => {
        const host = req.headers.host ?? `${ctx.settings.api.host}:${ctx.server.port}`;
        res.writeHead(200, { 'Content-Type': 'application/json' });
        const { listen, default_query, port } = deps.rtsp;
        const rtsp = { listen: port ? listen.replace(/:\d+$/, `:${port}`) : listen, default_query };
        res.end(JSON.stringify({ config_path: ctx.config.path, host, rtsp, version: GO2RTC_API_VERSION, app_version: ctx.version }));
      },
    },
    // Home Assistant asks which schemes the server dials before it hands it a camera's URL.
    {
      method: 'GET',
      path: '/api/schemes',
      handler: ({ res }) => {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify(deps.schemes()));
      },
    },
    // go2rtc's log view: the latest lines as JSON lines; DELETE clears them.
    {
      method: 'GET',
      path: '/api/log',
      handler: ({ res }) => {
        res.writeHead(200, { 'Content-Type': 'application/jsonlines', 'Cache-Control': 'no-store' });
        res.end(ctx.logs.text());
      },
    },
    {
      method: 'DELETE',
      path: '/api/log',
      handler: ({ res }) => {
        ctx.logs.clear();
        res.writeHead(200, { 'Content-Type': 'text/plain' }).end('OK');
      },
    },
    {
      method: 'POST',
      path: '/api/exit',
      handler: ({ res, url }) => {
        const raw = url.searchParams.get('code') ?? '0';
        const code = Number(raw);
        if (!/^\d+$/.test(raw) || code > 125) throw new HttpError(400, 'Code must be in the range [0, 125]');
        res.writeHead(200).end();
        setImmediate(() => ctx.requestExit(code));
      },
    },
    { method: '*', path: '/api/exit', handler: needsPost('exit') },
    {
      method: 'POST',
      path: '/api/restart',
      handler: ({ res }) => {
        res.writeHead(200).end();
        setImmediate(() => ctx.requestRestart());
      },
    },
    { method: '*', path: '/api/restart', handler: needsPost('restart') },
    {
      method: 'GET',
      path: '/api/stack',
      handler: ({ res }) => {
        res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8' });
        res.end(deps.tasks.dump());
      },
    },
  ];
}
