import { randomUUID } from 'node:crypto';
import { GraphError, graphErrorFromResponse } from './graph-error';
import { mayCarryToken, normalizeBaseUrl, resolveRequestUrl } from './graph-url';
import { createRetryPolicy, RETRYABLE_STATUSES, type RetryOptions } from './retry-policy';

type GraphMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface GraphRequest {
  method?: GraphMethod;
  /** Relative to the base (`/me/events`), or an absolute URL (a nextLink/deltaLink), used as given. */
  path: string;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  /** Sent as JSON (a string is sent as it is). */
  body?: unknown;
  signal?: AbortSignal;
}

interface GraphResponse<T> {
  status: number;
  headers: Headers;
  /** The parsed JSON body; undefined for an empty body (204). */
  body: T;
}

export interface GraphClient {
  /** The v1.0 root every relative path is resolved against, e.g. `https://graph.microsoft.com/v1.0`. */
  readonly baseUrl: string;
  /**
   * Which service and account the client reaches (base URL, tenant, application). Links a
   * service handed out (a stored deltaLink) are only followed by a client of the same connection.
   * Default: the base URL.
   */
  readonly connectionKey?: string;
  /** For a client whose connection opens on first use: opens it, so baseUrl and connectionKey can be read. */
  open?(): Promise<void>;
  /** Throws GraphError for a non-2xx answer after retries, or for a network failure (status 0). */
  request<T>(req: GraphRequest): Promise<GraphResponse<T>>;
}

export interface TokenProvider {
  getToken(signal?: AbortSignal): Promise<string>;
  /**
   * Forgets a token the server refused (401), so the next getToken fetches a fresh one instead
   * of answering from its cache. Optional: a provider without a cache needs none.
   */
  invalidate?(token: string): void;
}

/** One Graph collection page (`value` plus the links that continue it). */
export interface GraphCollection<T> {
  value: T[];
  '@odata.context'?: string;
  '@odata.nextLink'?: string;
  '@odata.deltaLink'?: string;
}

export interface RetryInfo {
  /** The attempt that was answered with `status` (1 for the first try). */
  attempt: number;
  /** The HTTP status, or 0 for a network failure. */
  status: number;
  delayMs: number;
}

/** One HTTP exchange with Graph, as the traffic panel lists it (the URL still whole: redact before showing). */
export interface GraphExchangeInfo {
  method: GraphMethod;
  url: string;
  /** 0 when Graph could not be reached. */
  status: number;
  durationMs: number;
  requestId: string | null;
  clientRequestId: string;
  errorCode: string | null;
}

export interface GraphClientOptions {
  baseUrl: string;
  tokens: TokenProvider;
  retry?: RetryOptions;
  fetch?: typeof fetch;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  onRetry?: (info: RetryInfo) => void;
  /** Called after every HTTP exchange, retries and redirects included. */
  onExchange?: (info: GraphExchangeInfo) => void;
}

const MAX_REDIRECTS = 5;
const IDEMPOTENT: ReadonlySet<GraphMethod> = new Set(['GET', 'PUT', 'DELETE']);

/** setTimeout as a promise that an AbortSignal cuts short (rejecting with the signal's reason). */
function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function serializeBody(body: unknown): string | undefined {
  if (body === undefined) return undefined;
  return typeof body === 'string' ? body : JSON.stringify(body);
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === '') return undefined;
  const type = response.headers.get('content-type') ?? '';
  if (type.includes('json') || /^\s*[[{]/.test(text)) {
    try {
      return JSON.parse(text);
    } catch {
      if (type.includes('json'))
        throw new GraphError(response.status, 'invalidResponse', `Graph answered ${response.status} with a body that is not JSON`);
    }
  }
  return text;
}

/** Frees the connection of a response whose body will not be read. */
async function discard(response: Response): Promise<void> {
  await response.body?.cancel().catch(() => undefined);
}

function isAbort(error: unknown, signal?: AbortSignal): boolean {
  return signal?.aborted === true || (error instanceof Error && error.name === 'AbortError');
}

/**
 * A small typed fetch client for Graph v1.0. It does what the official client's middleware does
 * (bearer token, retries on 429/503/504 honouring Retry-After, one token refresh on 401) but
 * also attaches the token to absolute `http://` nextLinks of the same origin, which the official
 * client drops; that is what makes it work against the plain-http local emulator.
 */
export function createGraphClient(options: GraphClientOptions): GraphClient {
  const baseUrl = normalizeBaseUrl(options.baseUrl);
  const doFetch = options.fetch ?? fetch;
  const sleep = options.sleep ?? abortableSleep;
  const policy = createRetryPolicy(options.retry);

  async function request<T>(req: GraphRequest): Promise<GraphResponse<T>> {
    let method: GraphMethod = req.method ?? 'GET';
    let url = resolveRequestUrl(baseUrl, req.path, req.query);
    let body = serializeBody(req.body);
    const clientRequestId = randomUUID();
    let attempt = 0;
    let redirects = 0;
    let refreshedAfter401 = false;

    for (;;) {
      attempt += 1;
      const headers = new Headers({ accept: 'application/json', 'client-request-id': clientRequestId });
      if (body !== undefined) headers.set('content-type', 'application/json');
      for (const [name, value] of Object.entries(req.headers ?? {})) headers.set(name, value);
      // Whatever the caller passed, a token only travels to the base URL's origin.
      headers.delete('authorization');
      const withToken = mayCarryToken(baseUrl, url);
      let token: string | undefined;
      if (withToken) {
        token = await options.tokens.getToken(req.signal);
        headers.set('authorization', `Bearer ${token}`);
      }

      let response: Response;
      const sentAt = performance.now();
      const exchanged = (status: number, requestId: string | null, errorCode: string | null) =>
        options.onExchange?.({ method, url, status, durationMs: performance.now() - sentAt, requestId, clientRequestId, errorCode });
      try {
        // Redirects are followed here, not by fetch, so the token rule applies to every hop.
        response = await doFetch(url, { method, headers, body, signal: req.signal, redirect: 'manual' });
      } catch (error) {
        exchanged(0, null, isAbort(error, req.signal) ? 'aborted' : 'networkError');
        if (isAbort(error, req.signal)) throw error;
        const delayMs = IDEMPOTENT.has(method) ? policy.delayFor(attempt, null) : null;
        const reason = (error as Error).cause instanceof Error ? ((error as Error).cause as Error).message : (error as Error).message;
        if (delayMs === null)
          throw new GraphError(0, 'networkError', `cannot reach Graph at ${new URL(url).origin}: ${reason}`, null, clientRequestId);
        options.onRetry?.({ attempt, status: 0, delayMs });
        await sleep(delayMs, req.signal);
        continue;
      }

      const requestId = response.headers.get('request-id');
      const location = response.headers.get('location');
      if (response.status >= 300 && response.status < 400 && location && redirects < MAX_REDIRECTS) {
        await discard(response);
        exchanged(response.status, requestId, null);
        redirects += 1;
        attempt -= 1; // a redirect is not a failed try
        url = new URL(location, url).href;
        if (response.status === 303 || ((response.status === 301 || response.status === 302) && method !== 'GET')) {
          method = 'GET';
          body = undefined;
        }
        continue;
      }

      if (response.status >= 200 && response.status < 300) {
        const read = (await readBody(response)) as T;
        exchanged(response.status, requestId, null);
        return { status: response.status, headers: response.headers, body: read };
      }

      if (response.status === 401 && withToken && !refreshedAfter401) {
        // An expired or revoked token: forget it and try once more with a fresh one.
        refreshedAfter401 = true;
        await discard(response);
        exchanged(response.status, requestId, 'InvalidAuthenticationToken');
        if (token !== undefined) options.tokens.invalidate?.(token);
        attempt -= 1;
        continue;
      }

      if (RETRYABLE_STATUSES.has(response.status)) {
        const delayMs = policy.delayFor(attempt, response.headers.get('retry-after'));
        if (delayMs !== null) {
          await discard(response);
          exchanged(response.status, requestId, response.status === 429 ? 'TooManyRequests' : 'ServiceUnavailable');
          options.onRetry?.({ attempt, status: response.status, delayMs });
          await sleep(delayMs, req.signal);
          continue;
        }
      }

      const failure = await graphErrorFromResponse(response, clientRequestId);
      exchanged(response.status, requestId, failure.code);
      throw failure;
    }
  }

  return { baseUrl, request };
}
