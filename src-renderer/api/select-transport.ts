import type { ClientTransport, ConsoleBridge } from '../../src-shared/contract/transport';
import { CONSOLE_SOCKET_PATH, SESSION_TOKEN_META } from '../../src-shared/contract/wire';
import { createWebSocketTransport, type ConnectionState } from './transport-websocket';

export interface SelectedTransport {
  transport: ClientTransport;
  kind: 'ipc' | 'websocket';
  onStateChange(listener: (state: ConnectionState) => void): () => void;
}

declare global {
  interface Window {
    /** Set by the Electron preload; absent in a browser. */
    relayConsole?: ConsoleBridge;
  }
}

function readToken(doc: Document): string {
  return doc.querySelector<HTMLMetaElement>(`meta[name="${SESSION_TOKEN_META}"]`)?.content ?? '';
}

/** Electron's preload bridge when present; otherwise the WebSocket of the page's own server. */
export function selectTransport(): SelectedTransport {
  const bridge = window.relayConsole;
  if (bridge) {
    return { transport: bridge, kind: 'ipc', onStateChange: (listener) => (listener('open'), () => undefined) };
  }
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  let first = true;
  const ws = createWebSocketTransport({
    url: `${scheme}//${location.host}${CONSOLE_SOCKET_PATH}`,
    token: async () => {
      if (first) {
        first = false;
        return readToken(document);
      }
      // main may have been restarted with a new token: the page it serves now carries it.
      const html = await (await fetch(location.pathname, { cache: 'no-store' })).text();
      return readToken(new DOMParser().parseFromString(html, 'text/html'));
    },
  });
  return { transport: ws, kind: 'websocket', onStateChange: (listener) => ws.onStateChange(listener) };
}
