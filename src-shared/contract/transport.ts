import type { Result } from './result';

/**
 * What a client needs from a transport; the renderer has two (Electron IPC, WebSocket) and
 * the service client does not know which one it holds.
 */
export interface ClientTransport {
  call(service: string, method: string, input: unknown): Promise<Result<unknown>>;
  subscribe(service: string, event: string, listener: (payload: unknown) => void): () => void;
}

/** What the Electron preload exposes on `window.relayConsole` (and nothing more). */
export type ConsoleBridge = ClientTransport & {
  readonly runtime: 'electron';
  /** The disk path of a file the user picked or dropped (Electron's webUtils), so main reads it where it is. */
  pathForFile?(file: unknown): string;
};
