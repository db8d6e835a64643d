import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { IncomingHttpHeaders } from 'node:http';
import { request } from 'node:https';
import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import type { INetworkModule, NetworkRequestOptions } from '@azure/msal-node';
import { nodeTls } from '../../platform/cjs-builtins';

// Which certificate authorities one directory connection trusts, for everything it sends: msal's
// sign-in, the token endpoint, the Graph client and the calendar sync. Node's fetch takes no CA
// (its dispatcher would need undici itself), so a host with extra CAs is reached through
// node:https with them; every other host keeps the platform's fetch and msal's own HTTP.

/** Hosts on this machine: the console's own emulators, a test identity service. */
function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host === '::1' || /^127\./.test(host);
}

/** The CA files the console's own emulators made (each vouches for its emulator's certificate alone); a missing one is skipped. */
export function readLocalCas(paths: string[]): string[] {
  return paths.flatMap((path) => {
    try {
      return [readFileSync(path, 'utf8')];
    } catch {
      return [];
    }
  });
}

/** Why a CA file a person named cannot be used; `reason` tells the form which words to show. */
export class CaFileError extends Error {
  override readonly name = 'CaFileError';
  constructor(
    readonly path: string,
    readonly reason: 'unreadable' | 'notPem',
    message: string,
  ) {
    super(message);
  }
}

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/**
 * The certificates of a CA file (PEM, one or more, as a corporate proxy's bundle has them).
 * Throws CaFileError when the file cannot be read or holds no certificate that parses: a file
 * that silently trusted nothing would fail later as an unexplained TLS error.
 */
export async function readCaFile(path: string): Promise<string[]> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT'
        ? 'no such file'
        : code === 'EACCES'
          ? 'permission denied'
          : code === 'EISDIR'
            ? 'it is a folder'
            : (error as Error).message;
    throw new CaFileError(path, 'unreadable', `cannot read ${path}: ${why}`);
  }
  const blocks = text.match(PEM_CERTIFICATE) ?? [];
  if (blocks.length === 0)
    throw new CaFileError(path, 'notPem', `${path} is not a PEM certificate: expected a block starting with -----BEGIN CERTIFICATE-----`);
  blocks.forEach((block, index) => {
    try {
      new X509Certificate(block);
    } catch {
      throw new CaFileError(path, 'notPem', `${path} is not a PEM certificate: certificate ${index + 1} of the file does not parse`);
    }
  });
  return blocks;
}

export interface ConnectionTrustOptions {
  /** The console's own emulators' CAs: trusted for loopback hosts only. */
  localCas: string[];
  /** The CA file a person named for the tenant (a TLS-inspecting proxy): trusted for every host of the connection. */
  userCas: string[];
  /** What the platform trusts anyway; default Node's bundled roots. */
  baseCas?: readonly string[];
}

export interface ConnectionTrust {
  /** The CA list for a host, or undefined when the platform's own trust applies (nothing extra). */
  caFor(hostname: string): string[] | undefined;
  /** fetch for the Graph client and the token endpoint. */
  fetch: typeof fetch;
  /** msal's HTTP for this authority host; undefined when msal's own applies. */
  msalNetwork(authorityHost: string): INetworkModule | undefined;
}

export function createConnectionTrust(options: ConnectionTrustOptions): ConnectionTrust {
  const base = options.baseCas ?? nodeTls.rootCertificates;
  const caFor = (hostname: string): string[] | undefined => {
    const extra = [...options.userCas, ...(isLoopbackHost(hostname) ? options.localCas : [])];
    return extra.length > 0 ? [...base, ...extra] : undefined;
  };
  const trustingFetch: typeof fetch = (input, init) => {
    if (typeof input !== 'string' && !(input instanceof URL))
      return Promise.reject(new TypeError('the directory connection fetches by URL, not by Request'));
    const url = new URL(input);
    const ca = url.protocol === 'https:' ? caFor(url.hostname) : undefined;
    return ca ? httpsFetch(url, init ?? {}, ca) : fetch(input, init);
  };
  return {
    caFor,
    fetch: trustingFetch,
    msalNetwork: (authorityHost) => (caFor(new URL(authorityHost).hostname) ? createTrustNetwork(caFor) : undefined),
  };
}

const IDLE_TIMEOUT_MS = 300_000;

function headersOf(incoming: IncomingHttpHeaders): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming)) {
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else if (value !== undefined) headers.append(name, value);
  }
  return headers;
}

/**
 * A fetch over node:https with a CA list, for what the directory clients send: a string or
 * form body, an AbortSignal, and redirects as `manual` (the Graph client follows them itself,
 * so its token rule applies to each hop) or `error`. A failure rejects as fetch does: a
 * TypeError whose cause is the socket's error ("self-signed certificate in certificate chain").
 */
function httpsFetch(url: URL, init: RequestInit, ca: string[]): Promise<Response> {
  const signal = init.signal ?? undefined;
  if (signal?.aborted) return Promise.reject(signal.reason);
  const headers = new Headers(init.headers);
  let payload: string | undefined;
  if (typeof init.body === 'string') payload = init.body;
  else if (init.body instanceof URLSearchParams) {
    payload = init.body.toString();
    if (!headers.has('content-type')) headers.set('content-type', 'application/x-www-form-urlencoded;charset=UTF-8');
  } else if (init.body !== undefined && init.body !== null)
    return Promise.reject(new TypeError('the directory connection sends text or form bodies only'));
  if (payload !== undefined) headers.set('content-length', String(Buffer.byteLength(payload)));
  const method = (init.method ?? 'GET').toUpperCase();

  return new Promise<Response>((resolve, reject) => {
    const req = request(url, { method, headers: Object.fromEntries(headers), ca, timeout: IDLE_TIMEOUT_MS }, (res) => {
      const status = res.statusCode ?? 0;
      if (init.redirect === 'error' && status >= 300 && status < 400) {
        res.destroy();
        reject(new TypeError(`${url.origin} answered with a redirect (${status}), which this request does not follow`));
        return;
      }
      const empty = method === 'HEAD' || status === 204 || status === 304;
      if (empty) res.resume();
      res.once('close', () => signal?.removeEventListener('abort', onAbort));
      const body = empty ? null : (Readable.toWeb(res) as NodeReadableStream<Uint8Array> as unknown as ReadableStream<Uint8Array>);
      resolve(new Response(body, { status, statusText: res.statusMessage ?? '', headers: headersOf(res.headers) }));
    });
    const onAbort = () => {
      req.destroy(signal?.reason as Error);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    req.on('timeout', () => req.destroy(new Error(`no answer from ${url.host} within ${IDLE_TIMEOUT_MS / 1000} s`)));
    req.on('error', (error) => {
      signal?.removeEventListener('abort', onAbort);
      reject(new TypeError(error.message, { cause: error }));
    });
    req.end(payload);
  });
}

/** msal's HTTP with the connection's CAs (msal asks for GET discovery and POST token requests only). */
function createTrustNetwork(caFor: (hostname: string) => string[] | undefined): INetworkModule {
  const send = <T>(method: 'GET' | 'POST', url: string, options: NetworkRequestOptions = {}, timeoutMs = 30_000) =>
    new Promise<{ status: number; headers: Record<string, string>; body: T }>((resolve, reject) => {
      const req = request(url, { method, headers: options.headers, ca: caFor(new URL(url).hostname), timeout: timeoutMs }, (res) => {
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
          const headers = Object.fromEntries(
            Object.entries(res.headers).flatMap(([name, value]) =>
              typeof value === 'string' ? [[name, value]] : Array.isArray(value) ? [[name, value.join(', ')]] : [],
            ),
          );
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
