import WebSocket from 'ws';
import { CONSOLE_SOCKET_PATH, CONSOLE_SOCKET_PROTOCOL, SESSION_TOKEN_META, tokenProtocol } from '../../src-shared/contract/wire';

export interface ConsoleClient {
  call(service: string, method: string, input?: unknown): Promise<{ ok: boolean; value?: unknown }>;
  /** Subscribes to one event of a service; the listener gets each payload. */
  on(service: string, event: string, listener: (payload: unknown) => void): void;
  close(): void;
}

/**
 * The console's contract over its WebSocket, as the renderer reaches it headless: the session
 * token read from the console's page, then calls and events as frames.
 */
export async function consoleClient(api: string): Promise<ConsoleClient> {
  const page = await (await fetch(`${api}/`)).text();
  const token = new RegExp(`<meta name="${SESSION_TOKEN_META}" content="([^"]+)"`).exec(page)?.[1];
  if (!token) throw new Error('the console page carries no session token (is the renderer built?)');
  const ws = new WebSocket(`${api.replace(/^http/, 'ws')}${CONSOLE_SOCKET_PATH}`, [CONSOLE_SOCKET_PROTOCOL, tokenProtocol(token)]);
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  let nextId = 1;
  const pending = new Map<number, (result: { ok: boolean; value?: unknown }) => void>();
  const listeners = new Map<string, Array<(payload: unknown) => void>>();
  ws.on('message', (data) => {
    const frame = JSON.parse(String(data)) as {
      type: string;
      id?: number;
      result?: { ok: boolean; value?: unknown };
      service?: string;
      event?: string;
      payload?: unknown;
    };
    if (frame.type === 'result') pending.get(frame.id!)?.(frame.result!);
    if (frame.type === 'event') for (const listener of listeners.get(`${frame.service}.${frame.event}`) ?? []) listener(frame.payload);
  });
  return {
    call: (service, method, input) =>
      new Promise((resolve) => {
        const id = nextId++;
        pending.set(id, resolve);
        ws.send(JSON.stringify({ type: 'call', id, service, method, ...(input === undefined ? {} : { input }) }));
      }),
    on(service, event, listener) {
      const key = `${service}.${event}`;
      listeners.set(key, [...(listeners.get(key) ?? []), listener]);
      ws.send(JSON.stringify({ type: 'subscribe', service, event }));
    },
    close: () => ws.close(),
  };
}
