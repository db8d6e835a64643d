import { err, type Result } from '../../src-shared/contract/result';
import type { ClientTransport } from '../../src-shared/contract/transport';
import {
  CONSOLE_SOCKET_PROTOCOL,
  serverFrameSchema,
  tokenProtocol,
  type ClientFrame,
} from '../../src-shared/contract/wire';

export type ConnectionState = 'connecting' | 'open' | 'closed';

export interface WebSocketTransport extends ClientTransport {
  readonly state: ConnectionState;
  onStateChange(listener: (state: ConnectionState) => void): () => void;
  close(): void;
}

const CALL_TIMEOUT_MS = 30_000;
const MAX_BACKOFF_MS = 10_000;

interface PendingCall {
  resolve: (result: Result<unknown>) => void;
  timer: ReturnType<typeof setTimeout>;
}

/**
 * The contract over the console WebSocket (headless mode). Reconnects with backoff, sends calls
 * made while reconnecting once the socket is open again, and re-subscribes events.
 */
export function createWebSocketTransport(options: {
  url: string;
  /** The session token; called before every (re)connect, since a restarted main has a new one. */
  token: () => string | Promise<string>;
  /** The browser's WebSocket; tests under Node hand in another implementation. */
  WebSocketImpl?: typeof WebSocket;
}): WebSocketTransport {
  const Socket = options.WebSocketImpl ?? WebSocket;
  let socket: WebSocket | undefined;
  let state: ConnectionState = 'connecting';
  let nextId = 1;
  let attempt = 0;
  let closedByUser = false;
  const pending = new Map<number, PendingCall>();
  const outbox: ClientFrame[] = [];
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  const stateListeners = new Set<(state: ConnectionState) => void>();

  const setState = (next: ConnectionState): void => {
    state = next;
    for (const listener of stateListeners) listener(next);
  };

  const send = (frame: ClientFrame): void => {
    if (socket?.readyState === Socket.OPEN) socket.send(JSON.stringify(frame));
    else if (frame.type === 'call') outbox.push(frame);
  };

  const scheduleReconnect = (): void => {
    if (closedByUser) return;
    const delay = Math.min(MAX_BACKOFF_MS, 250 * 2 ** attempt++);
    setTimeout(() => void connect(), delay);
  };

  const connect = async (): Promise<void> => {
    setState('connecting');
    let token: string;
    try {
      token = await options.token();
    } catch {
      setState('closed');
      return scheduleReconnect();
    }
    if (closedByUser) return;
    const ws = new Socket(options.url, [CONSOLE_SOCKET_PROTOCOL, tokenProtocol(token)]);
    socket = ws;
    // A refused or broken socket also fires close, which decides what happens next.
    ws.onerror = () => undefined;
    ws.onopen = () => {
      attempt = 0;
      setState('open');
      for (const key of listeners.keys()) {
        const [service, event] = key.split('/') as [string, string];
        ws.send(JSON.stringify({ type: 'subscribe', service, event } satisfies ClientFrame));
      }
      for (const frame of outbox.splice(0)) ws.send(JSON.stringify(frame));
    };
    ws.onmessage = (message) => {
      const parsed = serverFrameSchema.safeParse(JSON.parse(String(message.data)));
      if (!parsed.success) return;
      const frame = parsed.data;
      if (frame.type === 'result') {
        const call = pending.get(frame.id);
        if (!call) return;
        pending.delete(frame.id);
        clearTimeout(call.timer);
        call.resolve(frame.result as Result<unknown>);
      } else {
        for (const listener of listeners.get(`${frame.service}/${frame.event}`) ?? []) listener(frame.payload);
      }
    };
    ws.onclose = () => {
      if (socket !== ws) return;
      setState('closed');
      scheduleReconnect();
    };
  };
  void connect();

  return {
    get state() {
      return state;
    },
    call(service, method, input) {
      return new Promise((resolve) => {
        const id = nextId++;
        const timer = setTimeout(() => {
          pending.delete(id);
          resolve(err('unavailable', `${service}.${method}: no answer from the console engine`));
        }, CALL_TIMEOUT_MS);
        pending.set(id, { resolve, timer });
        send({ type: 'call', id, service, method, input });
      });
    },
    subscribe(service, event, listener) {
      const key = `${service}/${event}`;
      let set = listeners.get(key);
      if (!set) {
        listeners.set(key, (set = new Set()));
        send({ type: 'subscribe', service, event });
      }
      set.add(listener);
      return () => {
        set.delete(listener);
        if (set.size === 0) {
          listeners.delete(key);
          send({ type: 'unsubscribe', service, event });
        }
      };
    },
    onStateChange(listener) {
      stateListeners.add(listener);
      return () => stateListeners.delete(listener);
    },
    close() {
      closedByUser = true;
      socket?.close();
    },
  };
}
