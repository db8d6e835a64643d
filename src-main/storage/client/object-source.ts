import type { IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { nodeHttp } from '../../platform/cjs-builtins';

/** Where main GETs an object from: its URL, and for the emulator the address serving every domain. */
export interface ObjectSource {
  url: string;
  /** `host:port` to connect to instead of the URL's host, which then goes only in the Host header. */
  connectTo?: string;
}

/**
 * Opens a GET (or HEAD) of an object source and resolves with the response as it starts. The
 * emulator routes bucket domains by Host on one port, so its domains need not resolve.
 */
export function openObjectSource(
  source: ObjectSource,
  options: { method?: string; headers?: Record<string, string>; signal?: AbortSignal } = {},
): Promise<IncomingMessage> {
  const url = new URL(source.url);
  const connect = source.connectTo ? new URL(`http://${source.connectTo}`) : url;
  const send = url.protocol === 'https:' && !source.connectTo ? httpsRequest : nodeHttp.request;
  return new Promise((resolve, reject) => {
    const request = send(
      {
        host: connect.hostname,
        port: connect.port || (connect.protocol === 'https:' ? 443 : 80),
        method: options.method ?? 'GET',
        path: url.pathname + url.search,
        headers: { Host: url.host, ...options.headers },
        ...(options.signal ? { signal: options.signal } : {}),
      },
      resolve,
    );
    request.on('error', reject);
    request.end();
  });
}
