import type { IncomingMessage, RequestListener, Server as HttpServer } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { createServer as createNetServer, type Server as NetServer, type Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { nodeHttp } from '../cjs-builtins';

export interface DualProtocolServer {
  /** What to listen on. */
  readonly server: NetServer;
  /** Both protocols' servers, for settings such as keepAliveTimeout. */
  readonly httpServers: HttpServer[];
  closeAllConnections(): void;
  close(): Promise<void>;
}

/** The first byte of a TLS ClientHello record (handshake). */
const TLS_HANDSHAKE = 0x16;

/**
 * One port answering both plain HTTP and HTTPS, told apart by the first byte a client sends:
 * an SDK configured for https and one configured for http reach the same emulator at the same
 * address, as they reach Kodo or Graph. Without TLS settings it is a plain HTTP server.
 */
export function createDualProtocolServer(handler: RequestListener, tls: { cert: string; key: string } | null): DualProtocolServer {
  const http = nodeHttp.createServer(handler);
  if (!tls) {
    return {
      server: http,
      httpServers: [http],
      closeAllConnections: () => http.closeAllConnections(),
      close: () => new Promise<void>((resolve) => http.close(() => resolve())),
    };
  }
  const https = createHttpsServer({ cert: tls.cert, key: tls.key }, handler);
  // The sockets are the outer server's: http's and https's lists do not hold the ones handed over.
  const sockets = new Set<Socket>();
  const net = createNetServer((socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    // A connection that never says anything does not hold a socket for ever.
    socket.setTimeout(30_000, () => socket.destroy());
    socket.once('data', (first: Buffer) => {
      socket.setTimeout(0);
      socket.pause();
      socket.unshift(first);
      (first[0] === TLS_HANDSHAKE ? https : http).emit('connection', socket);
      process.nextTick(() => socket.resume());
    });
    socket.on('error', () => socket.destroy());
  });
  return {
    server: net,
    httpServers: [http, https],
    closeAllConnections() {
      for (const socket of sockets) socket.destroy();
    },
    close: () => new Promise<void>((resolve) => net.close(() => resolve())),
  };
}

/** `https://host` or `http://host` as the client reached this server: links it is given back must work for it. */
export function requestOrigin(req: IncomingMessage, fallback: string): string {
  const host = req.headers.host;
  if (!host) return fallback;
  return `${(req.socket as TLSSocket).encrypted ? 'https' : 'http'}://${host}`;
}
