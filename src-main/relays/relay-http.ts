import { redactSource } from '@main/relay/core/redact-source';
import type { RelayLogin } from './relays-config';

/** Where a relay's API is and how to log in to it. */
export interface RelayTarget {
  /** The API address without a login, e.g. `http://10.0.0.5:1984`. */
  url: string;
  login?: RelayLogin;
}

export interface RelayRequest {
  method?: 'GET' | 'PUT' | 'PATCH' | 'DELETE' | 'POST';
  /** Query parameters in order (`src` may repeat). */
  query?: Array<[string, string]>;
  body?: string;
  timeoutMs?: number;
  /** Answers longer than this are refused (a relay is not trusted to be small). */
  maxBytes?: number;
  signal?: AbortSignal;
}

export interface RelayAnswer {
  status: number;
  text: string;
}

/** Why a relay did not answer usefully; `reason` is what the console shows. */
export class RelayHttpError extends Error {
  override name = 'RelayHttpError';
  constructor(
    readonly reason: string,
    /** The HTTP status when the relay answered one. */
    readonly status?: number,
  ) {
    super(reason);
  }
}

const REQUEST_TIMEOUT_MS = 3_000;
const MAX_ANSWER_BYTES = 8 * 1024 * 1024;
const MAX_REDIRECTS = 3;

/** Node's socket error codes in words a user reads in the console. */
const NETWORK_REASONS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host name lookup failed',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ETIMEDOUT: 'timed out',
  UND_ERR_SOCKET: 'connection closed',
  UND_ERR_HEADERS_TIMEOUT: 'timed out waiting for the answer',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'its TLS certificate is self-signed',
  CERT_HAS_EXPIRED: 'its TLS certificate has expired',
  ERR_TLS_CERT_ALTNAME_INVALID: 'its TLS certificate names another host',
};

function networkReason(error: unknown, timeoutMs: number): string {
  const err = error as { name?: string; cause?: { code?: string; message?: string }; code?: string; message?: string };
  if (err.name === 'TimeoutError') return `timed out after ${Math.round(timeoutMs / 100) / 10} s`;
  if (err.name === 'AbortError') return 'cancelled';
  const code = err.cause?.code ?? err.code;
  if (code && NETWORK_REASONS[code]) return NETWORK_REASONS[code];
  return (code ?? err.cause?.message ?? err.message ?? 'no answer').slice(0, 200);
}

const basicAuth = (login: RelayLogin) => `Basic ${Buffer.from(`${login.username}:${login.password}`, 'utf8').toString('base64')}`;

/** Reads a body up to `max` bytes; more is an error, not a truncation. */
async function readLimited(response: Response, max: number): Promise<string> {
  const declared = Number(response.headers.get('content-length') ?? NaN);
  if (declared > max) throw new RelayHttpError(`its answer is too large (${declared} bytes, at most ${max})`, response.status);
  if (!response.body) return '';
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > max) {
      await reader.cancel();
      throw new RelayHttpError(`its answer is too large (more than ${max} bytes)`, response.status);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * One request to a relay's API with its login (Basic auth), a time limit and a size limit.
 * Redirects are followed a few times to http and https only, and the login goes along only to
 * the same origin: a relay cannot send the console to a file or another scheme, nor learn
 * where else its login would open.
 */
export async function relayRequest(target: RelayTarget, path: string, options: RelayRequest = {}): Promise<RelayAnswer> {
  const timeoutMs = options.timeoutMs ?? REQUEST_TIMEOUT_MS;
  const signal = options.signal ? AbortSignal.any([options.signal, AbortSignal.timeout(timeoutMs)]) : AbortSignal.timeout(timeoutMs);
  let url = new URL(`${target.url}${path}`);
  for (const [key, value] of options.query ?? []) url.searchParams.append(key, value);
  const origin = url.origin;
  try {
    for (let hop = 0; ; hop++) {
      const headers: Record<string, string> = {};
      if (target.login && url.origin === origin) headers.Authorization = basicAuth(target.login);
      const response = await fetch(url, { method: options.method ?? 'GET', headers, body: options.body, redirect: 'manual', signal });
      const location = response.headers.get('location');
      if (response.status >= 300 && response.status < 400 && location) {
        await response.body?.cancel();
        const next = new URL(location, url);
        if (next.protocol !== 'http:' && next.protocol !== 'https:') {
          throw new RelayHttpError(`it redirected to a ${next.protocol} address; only http and https are followed`, response.status);
        }
        if (hop >= MAX_REDIRECTS) throw new RelayHttpError(`it redirected more than ${MAX_REDIRECTS} times`, response.status);
        url = next;
        continue;
      }
      return { status: response.status, text: await readLimited(response, options.maxBytes ?? MAX_ANSWER_BYTES) };
    }
  } catch (error) {
    if (error instanceof RelayHttpError) throw error;
    throw new RelayHttpError(networkReason(error, timeoutMs));
  }
}

/** A status the caller did not want, in words: the relay's own message where it gave one. */
export function statusReason(answer: RelayAnswer): string {
  const said = redactSource(answer.text.trim().split('\n')[0]?.slice(0, 300) ?? '');
  if (answer.status === 401) return `HTTP 401: the relay wants a login${said ? ` (${said})` : ''}`;
  return `HTTP ${answer.status}${said ? `: ${said}` : ''}`;
}

/** GET a JSON answer (2xx), or a RelayHttpError with the status and the relay's words. */
export async function relayJson(target: RelayTarget, path: string, options: RelayRequest = {}): Promise<unknown> {
  const answer = await relayRequest(target, path, options);
  if (answer.status < 200 || answer.status >= 300) throw new RelayHttpError(statusReason(answer), answer.status);
  try {
    return JSON.parse(answer.text) as unknown;
  } catch {
    throw new RelayHttpError(`its ${path} answer is not JSON`, answer.status);
  }
}
