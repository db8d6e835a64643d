import { capability } from '@main/engine/engine-context';

/**
 * What the relays module lends the embedded relay: where a remote relay's stream is pulled
 * from, for `relay://<relay>/<stream>` sources (relay/protocols/relay-source).
 */
export interface RemoteRelays {
  /**
   * The RTSP address of stream `stream` on relay `relay`, with the relay's sealed login: its API
   * host, the RTSP port its `/api` says. Throws an error that says why for an unknown relay or
   * one without an RTSP server.
   */
  rtspSource(relay: string, stream: string, signal: AbortSignal): Promise<string>;
}

export const remoteRelays = capability<RemoteRelays>('relays.remote');
