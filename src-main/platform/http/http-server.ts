import type { IncomingMessage, RequestListener, Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { Duplex } from 'node:stream';
import type { Socket } from 'node:net';
import type { HttpRouter } from './router';
import { createFailureLog, sendError } from './router';
import { HttpError } from './http-error';
import { assertBasicAuth, assertLoopbackHost, assertSameOriginWrite, isLoopbackAddress, type BasicCredentials } from './request-guard';
import type { Logger } from '../logger';
import { listen } from '../listen';
import { applyCors, type AllowedOrigins } from './cross-origin';
import { nodeHttp } from '../cjs-builtins';

type UpgradeHandler = (req: IncomingMessage, socket: Duplex, head: Buffer) => void;

export interface HttpServerOptions {
  host: string;
  port: number;
  router: HttpRouter;
  logger: Logger;
  credentials?: BasicCredentials;
  /** `api.origin`: other sites whose pages may read answers (CORS); none by default. */
  allowedOrigins?: AllowedOrigins;
  /** `api.tls_listen`: the same API over https on another address. */
  tls?: { host: string; port: number; cert: string; key: string };
}

/** The API server: auth and origin checks in front of the router, WebSocket upgrades by path. */
export interface RunningHttpServer {
  readonly server: Server;
  /** `http://host:port` as a browser on this machine reaches it. */
  readonly url: string;
  readonly port: number;
  /** `https://host:port` of api.tls_listen, when it is on. */
  readonly tlsUrl?: string;
  upgrade(path: string, handler: UpgradeHandler): void;
  close(): Promise<void>;
}

export async function startHttpServer(options: HttpServerOptions): Promise<RunningHttpServer> {
  const { router, logger, credentials } = options;
  const upgrades = new Map<string, UpgradeHandler>();
  const sockets = new Set<Socket>();
  const failures = createFailureLog(logger);
  /** Auth, origin checks, then the router; `host` is the address this server listens on. */
  const handlerFor = (host: string): RequestListener => {
    const loopbackOnly = isLoopbackAddress(host);
    return (req, res) => {
      try {
        if (loopbackOnly) assertLoopbackHost(req);
        // Before auth: browsers send preflights without credentials.
        if (applyCors(req, res, options.allowedOrigins ?? [])) return;
        if (!router.authenticatesItself(req.method ?? 'GET', new URL(req.url ?? '/', 'http://localhost').pathname))
          assertBasicAuth(req, credentials);
        assertSameOriginWrite(req);
      } catch (error) {
        if (error instanceof HttpError && error.status === 401) {
          res.setHeader('WWW-Authenticate', 'Basic realm="Relay Console"');
        }
        sendError(res, error, failures);
        return;
      }
      void router.handle(req, res);
    };
  };
  const attach = (server: Server, host: string): Server => {
    const loopbackOnly = isLoopbackAddress(host);
    server.on('connection', (socket: Socket) => {
      sockets.add(socket);
      socket.once('close', () => sockets.delete(socket));
    });
    server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      const path = new URL(req.url ?? '/', 'http://localhost').pathname;
      const handler = upgrades.get(path);
      try {
        if (loopbackOnly) assertLoopbackHost(req);
        assertBasicAuth(req, credentials);
        if (!handler) throw new HttpError(404, 'not found');
        handler(req, socket, head);
      } catch (error) {
        const status = error instanceof HttpError ? error.status : 500;
        socket.end(
          `HTTP/1.1 ${status} ${status === 401 ? 'Unauthorized' : status === 403 ? 'Forbidden' : 'Error'}\r\nConnection: close\r\n\r\n`,
        );
      }
    });
    return server;
  };
  const server = attach(nodeHttp.createServer(handlerFor(options.host)), options.host);
  const tlsServer = options.tls
    ? attach(createHttpsServer({ cert: options.tls.cert, key: options.tls.key }, handlerFor(options.tls.host)), options.tls.host)
    : undefined;

  const port = await listen(server, options.port, options.host);
  const browserHost = options.host === '0.0.0.0' || options.host === '::' ? '127.0.0.1' : options.host;
  const url = `http://${browserHost.includes(':') ? `[${browserHost}]` : browserHost}:${port}`;
  logger.info('listening', { url });
  let tlsUrl: string | undefined;
  if (tlsServer && options.tls) {
    try {
      const tlsPort = await listen(tlsServer, options.tls.port, options.tls.host);
      const tlsHost = options.tls.host === '0.0.0.0' || options.tls.host === '::' ? '127.0.0.1' : options.tls.host;
      tlsUrl = `https://${tlsHost.includes(':') ? `[${tlsHost}]` : tlsHost}:${tlsPort}`;
      logger.info('listening (https)', { url: tlsUrl });
    } catch (error) {
      server.close();
      throw error;
    }
  }

  return {
    server,
    url,
    port,
    ...(tlsUrl ? { tlsUrl } : {}),
    upgrade(path, handler) {
      if (upgrades.has(path)) throw new Error(`upgrade ${path} registered twice`);
      upgrades.set(path, handler);
    },
    close: async () => {
      const closing = [server, ...(tlsServer ? [tlsServer] : [])].map((one) => new Promise<void>((resolve) => one.close(() => resolve())));
      // Long-lived responses (live streams, WebSockets) would keep close() waiting forever.
      for (const socket of sockets) socket.destroy();
      await Promise.all(closing);
    },
  };
}
