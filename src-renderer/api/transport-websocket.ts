import type { ContractErrorCode } from '../../src-shared/contract/error-codes';
import { err, type Result } from '../../src-shared/contract/result';
import type { ClientTransport } from '../../src-shared/contract/transport';
import { CONSOLE_SOCKET_PROTOCOL, serverFrameSchema, tokenProtocol, type ClientFrame } from '../../src-shared/contract/wire';

export type ConnectionState = 'connecting' | 'open' | 'closed';

export interface WebSocketTransport extends ClientTransport {
  readonly state: ConnectionState;
  onStateChange(listener: (state: ConnectionState) => void): () => void;
  close(): void;
}

const CALL_TIMEOUT_MS = 30_000;
const MAX_BACKOFF_MS = 10_000;

/** The error code of a call the transport refused or lost because the socket was not open. */
export const NOT_CONNECTED = 'not_connected' satisfies ContractErrorCode;
export const NOT_CONNECTED_MESSAGE = 'Not connected to the relay: your change was not sent. It will not be sent later.';
export const CONNECTION_LOST_MESSAGE =
  'The connection to the relay was lost before it answered: the change may or may not have been made. Check once it is back, then try again.';

interface PendingCall {
  resolve: (result: Result<unknown>) => void;
  timer: ReturnType<typeof setTimeout>;
  /** Held until the first connection opens (never sent yet), or sent and awaiting its answer. */
  frame?: ClientFrame;
}

/**
 * The contract over the console WebSocket (headless mode). Reconnects with backoff and
 * re-subscribes events, but never replays a call: a call made while the socket is not open is
 * refused at once with NOT_CONNECTED (the contract does not say which calls write, and a change
 * sent minutes later, after the user gave up on it, is worse than none). Reads are refetched on
 * reconnect by the query cache instead. Only while the page's very first connection is being
 * made are calls held, since nothing could have been shown to the user as failed yet.
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
  /** True until the first connection opens or fails: calls made then wait for it. */
  let firstConnect = true;
  const pending = new Map<number, PendingCall>();
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  const stateListeners = new Set<(state: ConnectionState) => void>();

  const setState = (next: ConnectionState): void => {
    state = next;
    for (const listener of stateListeners) listener(next);
  };

  const isOpen = (): boolean => socket?.readyState === Socket.OPEN;

  // Subscriptions are not queued: every one is sent again when a socket opens.
  const send = (frame: ClientFrame): void => {
    if (isOpen()) socket!.send(JSON.stringify(frame));
  };

  const settle = (id: number, result: Result<unknown>): void => {
    const call = pending.get(id);
    if (!call) return;
    pending.delete(id);
    clearTimeout(call.timer);
    call.resolve(result);
  };

  const lostOrRefused = (held: boolean): string => (held ? NOT_CONNECTED_MESSAGE : CONNECTION_LOST_MESSAGE);

  /** Ends every call still held or awaiting an answer: none of them is sent on a later socket. */
  const failAll = (message: (held: boolean) => string): void => {
    for (const [id, call] of [...pending]) settle(id, err(NOT_CONNECTED, message(call.frame !== undefined)));
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
      firstConnect = false;
      failAll(lostOrRefused);
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
      firstConnect = false;
      for (const key of listeners.keys()) {
        const [service, event] = key.split('/') as [string, string];
        ws.send(JSON.stringify({ type: 'subscribe', service, event } satisfies ClientFrame));
      }
      // Only calls held for the page's first connection are here; nothing else is ever queued.
      for (const call of pending.values()) {
        if (!call.frame) continue;
        ws.send(JSON.stringify(call.frame));
        delete call.frame;
      }
      setState('open');
    };
    ws.onmessage = (message) => {
      const parsed = serverFrameSchema.safeParse(JSON.parse(String(message.data)));
      if (!parsed.success) return;
      const frame = parsed.data;
      if (frame.type === 'result') {
        settle(frame.id, frame.result as Result<unknown>);
      } else {
        for (const listener of listeners.get(`${frame.service}/${frame.event}`) ?? []) listener(frame.payload);
      }
    };
    ws.onclose = () => {
      if (socket !== ws) return;
      firstConnect = false;
      // A call sent on this socket may or may not have been done; it is not sent again either.
      failAll(lostOrRefused);
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
      if (!isOpen() && !firstConnect) return Promise.resolve(err(NOT_CONNECTED, NOT_CONNECTED_MESSAGE));
      return new Promise((resolve) => {
        const id = nextId++;
        const frame: ClientFrame = { type: 'call', id, service, method, input };
        const timer = setTimeout(() => {
          // Dropping it here also takes a held call out, so a late first connection does not send it.
          pending.delete(id);
          resolve(err('unavailable', `${service}.${method}: no answer from the console engine`));
        }, CALL_TIMEOUT_MS);
        if (isOpen()) {
          pending.set(id, { resolve, timer });
          socket!.send(JSON.stringify(frame));
        } else {
          pending.set(id, { resolve, timer, frame });
        }
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
      failAll(lostOrRefused);
    },
  };
}
