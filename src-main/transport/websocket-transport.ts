import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { CONSOLE_SOCKET_PROTOCOL, clientFrameSchema, type ServerFrame } from '../../src-shared/contract/wire';
import { isExactOwnOrigin } from '../platform/http/request-guard';
import type { Logger } from '../platform/logger';
import type { ServiceGateway } from './service-host';

const MAX_FRAME_BYTES = 4 * 1024 * 1024;
/** Events are dropped for a client that cannot keep up, so one slow tab never grows main's memory. */
const MAX_BUFFERED_BYTES = 8 * 1024 * 1024;

export interface WebSocketTransport {
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void;
  readonly clientCount: number;
  close(): Promise<void>;
}

/**
 * The contract over a WebSocket (headless mode). A connection must come from the console's own
 * origin and present the session token that only the page main served carries.
 */
export function createWebSocketTransport(options: { host: ServiceGateway; sessionToken: string; logger: Logger }): WebSocketTransport {
  const { host, sessionToken, logger } = options;
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: MAX_FRAME_BYTES,
    handleProtocols: (protocols) => (protocols.has(CONSOLE_SOCKET_PROTOCOL) ? CONSOLE_SOCKET_PROTOCOL : false),
  });

  const refuse = (socket: Duplex, status: number, reason: string): void => {
    logger.warn('console socket refused', { reason });
    socket.end(`HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
  };

  const tokenMatches = (req: IncomingMessage): boolean => {
    const offered = String(req.headers['sec-websocket-protocol'] ?? '')
      .split(',')
      .map((p) => p.trim())
      .find((p) => p.startsWith('token.'));
    if (!offered) return false;
    const given = Buffer.from(offered.slice('token.'.length));
    const expected = Buffer.from(sessionToken);
    return given.length === expected.length && timingSafeEqual(given, expected);
  };

  const serve = (ws: WebSocket): void => {
    const unsubscribers = new Map<string, () => void>();
    const send = (frame: ServerFrame, droppable: boolean): void => {
      if (ws.readyState !== ws.OPEN) return;
      if (droppable && ws.bufferedAmount > MAX_BUFFERED_BYTES) return;
      ws.send(JSON.stringify(frame));
    };

    ws.on('message', (data, isBinary) => {
      if (isBinary) return void ws.close(1003, 'text frames only');
      let frame;
      try {
        frame = clientFrameSchema.parse(JSON.parse(data.toString()));
      } catch {
        return void ws.close(1007, 'malformed frame');
      }
      if (frame.type === 'call') {
        const { id } = frame;
        void host.call(frame.service, frame.method, frame.input).then((result) => send({ type: 'result', id, result }, false));
      } else if (frame.type === 'subscribe') {
        const key = `${frame.service}.${frame.event}`;
        if (unsubscribers.has(key)) return;
        const { service, event } = frame;
        const subscribed = host.subscribe(service, event, (payload) => send({ type: 'event', service, event, payload }, true));
        if (subscribed.ok) unsubscribers.set(key, subscribed.value);
      } else {
        const key = `${frame.service}.${frame.event}`;
        unsubscribers.get(key)?.();
        unsubscribers.delete(key);
      }
    });
    ws.on('close', () => {
      for (const unsubscribe of unsubscribers.values()) unsubscribe();
      unsubscribers.clear();
    });
    ws.on('error', (error) => logger.debug('console socket error', { error: error.message }));
  };

  return {
    handleUpgrade(req, socket, head) {
      const origin = req.headers.origin;
      if (origin !== undefined && !isExactOwnOrigin(req, origin)) return refuse(socket, 403, 'Forbidden');
      if (!tokenMatches(req)) return refuse(socket, 401, 'Unauthorized');
      wss.handleUpgrade(req, socket, head, (ws) => serve(ws));
    },
    get clientCount() {
      return wss.clients.size;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const client of wss.clients) client.terminate();
        wss.close(() => resolve());
      }),
  };
}
