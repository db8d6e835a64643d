import { readFileSync } from 'node:fs';
import { request } from 'node:https';
import { rootCertificates } from 'node:tls';
import type { INetworkModule, NetworkRequestOptions } from '@azure/msal-node';

/** Sign-in hosts on this machine: the embedded emulator, a test identity service. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host === '::1' || /^127\./.test(host);
}

/** The CA files the console's own emulators made (each vouches for its emulator's certificate alone). */
export function readLocalCas(paths: string[]): string[] {
  return paths.flatMap((path) => {
    try {
      return [readFileSync(path, 'utf8')];
    } catch {
      return [];
    }
  });
}

/**
 * msal's HTTP for a sign-in host on this machine, trusting the public roots plus the local CAs of
 * the console's emulators: a tenant added in Settings that points at the built-in Graph emulator
 * signs in over https without the user installing a CA. Used for loopback authorities only.
 */
export function createLocalTrustNetwork(extraCas: string[]): INetworkModule {
  const ca = [...rootCertificates, ...extraCas];
  const send = <T>(method: 'GET' | 'POST', url: string, options: NetworkRequestOptions = {}, timeoutMs = 30_000) =>
    new Promise<{ status: number; headers: Record<string, string>; body: T }>((resolve, reject) => {
      const req = request(url, { method, headers: options.headers, ca, timeout: timeoutMs }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let body: unknown = {};
          try {
            body = text ? JSON.parse(text) : {};
          } catch {
            body = { error: 'invalid_response', error_description: text.slice(0, 200) };
          }
          const headers = Object.fromEntries(Object.entries(res.headers).flatMap(([name, value]) => (typeof value === 'string' ? [[name, value]] : Array.isArray(value) ? [[name, value.join(', ')]] : [])));
          resolve({ status: res.statusCode ?? 0, headers, body: body as T });
        });
        res.on('error', reject);
      });
      req.on('timeout', () => req.destroy(new Error(`no answer from ${new URL(url).host} within ${timeoutMs} ms`)));
      req.on('error', reject);
      req.end(options.body);
    });
  return {
    sendGetRequestAsync: (url, options, timeout) => send('GET', url, options, timeout),
    sendPostRequestAsync: (url, options) => send('POST', url, options),
  };
}
