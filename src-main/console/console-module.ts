import { readFile } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { join } from 'node:path';
import { CONSOLE_SOCKET_PATH, SESSION_TOKEN_META } from '../../src-shared/contract/wire';
import type { EngineModule } from '../engine/engine-context';
import { HttpError } from '../platform/http/http-error';
import type { RouteHandler } from '../platform/http/router';
import { createWebSocketTransport } from '../transport/websocket-transport';
import { SECURITY_HEADERS } from './content-security-policy';
import { pageWithColorScheme, storedColorScheme } from './index-page';
import { readStaticFile } from './static-files';

export interface ConsoleModuleOptions {
  /** The renderer build (dist/renderer). */
  rendererDir: string;
  /** Secret of this run: the served page carries it, the console WebSocket demands it. */
  sessionToken: string;
}

const NOT_BUILT_PAGE = `<!doctype html><meta charset="utf-8"><title>Relay Console</title>
<p>The console has not been built. Run <code>npm run build</code>, then reload.</p>`;

/** The renderer's index page with this run's session token written in. */
async function readIndexPage(options: ConsoleModuleOptions): Promise<string> {
  const template = await readFile(join(options.rendererDir, 'index.html'), 'utf8');
  return template.replace(
    new RegExp(`<meta name="${SESSION_TOKEN_META}" content="[^"]*"\\s*/?>`),
    `<meta name="${SESSION_TOKEN_META}" content="${options.sessionToken}">`,
  );
}

/**
 * Serves the renderer at `/` on the API address (as go2rtc serves its UI on :1984) and the
 * contract over a WebSocket for it. The index page is the only place the session token appears.
 */
export function createConsoleModule(options: ConsoleModuleOptions): EngineModule {
  return {
    name: 'console',
    init(ctx) {
      const transport = createWebSocketTransport({
        host: ctx.services,
        sessionToken: options.sessionToken,
        logger: ctx.logger.child('console-ws'),
      });
      // The page is served from the moment the API listens (this module starts first) and shows
      // its connecting state; its socket opens once every module has bound its services.
      ctx.server.upgrade(CONSOLE_SOCKET_PATH, (req, socket, head) => {
        ctx.started.then(
          () => (socket.destroyed ? undefined : transport.handleUpgrade(req, socket, head)),
          () => socket.destroy(),
        );
      });
      ctx.onClose(() => transport.close());

      // The page is read once, while its routes are already in the table: a request in between
      // waits for the read rather than getting a 404.
      const indexHtml = readIndexPage(options).catch(() => {
        ctx.logger.warn('renderer build not found; the console page asks for a build', { dir: options.rendererDir });
        return undefined;
      });

      // The page carries the stored colour theme, so it paints in it before its socket is open.
      const sendIndex = async (res: ServerResponse): Promise<void> => {
        const html = await indexHtml;
        const page = html === undefined ? NOT_BUILT_PAGE : pageWithColorScheme(html, await storedColorScheme(ctx.services));
        res.writeHead(200, { ...SECURITY_HEADERS, 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
        res.end(page);
      };

      // Everything else not claimed by an API route (`/*`): the renderer's assets, or 404.
      const sendAsset: RouteHandler = async ({ req, res, url }) => {
        if (req.method !== 'GET' && req.method !== 'HEAD') throw new HttpError(404, `not found: ${url.pathname}`);
        // Browsers ask every origin for /favicon.ico (also on the API's JSON pages): the app icon.
        const file = await readStaticFile(options.rendererDir, url.pathname === '/favicon.ico' ? '/icon.png' : url.pathname);
        if (!file) throw new HttpError(404, `not found: ${url.pathname}`);
        const immutable = url.pathname.startsWith('/assets/');
        res.writeHead(200, {
          ...SECURITY_HEADERS,
          'Content-Type': file.type,
          'Content-Length': file.body.length,
          'Cache-Control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
        });
        res.end(req.method === 'HEAD' ? undefined : file.body);
      };
      ctx.http.add([
        { method: ['GET', 'HEAD'], path: '/', handler: ({ res }) => sendIndex(res) },
        { method: ['GET', 'HEAD'], path: '/index.html', handler: ({ res }) => sendIndex(res) },
        { method: '*', path: '/*', handler: sendAsset },
      ]);
    },
  };
}
