import { CookieJar } from './cookie-jar';
import { ExprError, ExprFunction, formatValue, fromJson, isMap, toJson, typeName, type ExprMap, type ExprValue } from './values';
import { nodeHttp } from '../../../platform/cjs-builtins';

export interface FetchLimits {
  /** For the whole exchange: redirects, headers and body (go2rtc's client has 5 s). */
  timeoutMs: number;
  /** Largest body read; a bigger answer fails the call instead of filling memory. */
  maxBytes: number;
}

export const DEFAULT_FETCH_LIMITS: FetchLimits = { timeoutMs: 5_000, maxBytes: 1 << 20 };

const MAX_REDIRECTS = 10;

interface PreparedRequest {
  url: URL;
  method: string;
  headers: Headers;
  body?: string;
}

/** The URL as errors show it: a password in it is replaced by `***`. */
function displayUrl(raw: string): string {
  return raw.replace(/^([a-z][a-z0-9+.-]*:\/\/[^/@:]*):[^/@]*@/i, '$1:***@');
}

/**
 * go2rtc's `fetch(url[, {method, headers, body, json, data, params}])`, answering
 * `{ok, status, text, json(), headers}`: `ok` is a status below 400, `status` the status line
 * ("200 OK"), `text` the body, `json()` the body parsed (nil when it is not JSON). One per
 * evaluation: its calls share cookies.
 */
export function createFetch(limits: FetchLimits = DEFAULT_FETCH_LIMITS): ExprFunction {
  const jar = new CookieJar();
  return new ExprFunction('fetch', async (args, { signal }) => {
    if (args.length < 1 || args.length > 2) throw new ExprError(`fetch takes 1 or 2 arguments, got ${args.length}`);
    const [rawUrl, options = null] = args as [ExprValue, ExprValue?];
    if (typeof rawUrl !== 'string') throw new ExprError(`fetch: the URL must be a string, got ${typeName(rawUrl)}`);
    if (options !== null && !isMap(options))
      throw new ExprError(`fetch: options must be a map like {method: "POST"}, got ${typeName(options)}`);
    const shown = displayUrl(rawUrl);
    const request = prepare(rawUrl, shown, options);
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, limits.timeoutMs);
    const onAbort = () => controller.abort();
    signal.addEventListener('abort', onAbort, { once: true });
    if (signal.aborted) controller.abort();
    try {
      return await exchange(request, jar, limits, controller.signal);
    } catch (error) {
      const reason = timedOut
        ? `no answer within ${limits.timeoutMs / 1000} s`
        : signal.aborted
          ? 'aborted: the stream no longer needs this source'
          : describeFailure(error, request.url);
      throw new ExprError(`fetch ${shown}: ${reason}`);
    } finally {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
    }
  });
}

function prepare(rawUrl: string, shown: string, options: ExprMap | null): PreparedRequest {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    throw new ExprError(`fetch: ${JSON.stringify(shown)} is not a valid URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ExprError(`fetch ${shown}: only http and https URLs can be fetched`);
  const option = (name: string) => options?.get(name) ?? null;
  const method = option('method');
  if (method !== null && typeof method !== 'string')
    throw new ExprError(`fetch ${shown}: method must be a string, got ${typeName(method)}`);

  const params = option('params');
  if (isMap(params)) for (const [key, value] of params) url.searchParams.append(key, formatValue(value));

  const headers = new Headers();
  const given = option('headers');
  if (given !== null && !isMap(given)) throw new ExprError(`fetch ${shown}: headers must be a map, got ${typeName(given)}`);
  try {
    for (const [name, value] of given ?? []) headers.set(name, formatValue(value));
  } catch (error) {
    throw new ExprError(`fetch ${shown}: invalid header: ${(error as Error).message}`);
  }

  // As go2rtc: `json` (sent as JSON), else `data` (a form), else `body` (text as is).
  let body: string | undefined;
  let contentType: string | undefined;
  const json = option('json');
  const data = option('data');
  const text = option('body');
  if (options?.has('json')) {
    body = JSON.stringify(toJson(json));
    contentType = 'application/json';
  } else if (isMap(data)) {
    body = new URLSearchParams([...data].map(([key, value]): [string, string] => [key, formatValue(value)])).toString();
    contentType = 'application/x-www-form-urlencoded';
  } else if (typeof text === 'string') {
    body = text;
  }
  if (contentType && !headers.has('content-type')) headers.set('content-type', contentType);

  // Credentials in the URL become Basic auth, as Go's client does (fetch refuses such URLs).
  if (url.username || url.password) {
    if (!headers.has('authorization'))
      headers.set(
        'authorization',
        `Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString('base64')}`,
      );
    url.username = '';
    url.password = '';
  }
  return { url, method: method ?? 'GET', headers, ...(body !== undefined ? { body } : {}) };
}

/** Sends the request, following redirects by hand so cookies set on the way are kept. */
async function exchange(request: PreparedRequest, jar: CookieJar, limits: FetchLimits, signal: AbortSignal): Promise<ExprMap> {
  let { url, method, body } = request;
  const headers = new Headers(request.headers);
  const userCookie = headers.get('cookie');
  for (let hop = 0; ; hop++) {
    const cookie = [userCookie, jar.header(url)].filter(Boolean).join('; ');
    if (cookie) headers.set('cookie', cookie);
    const response = await fetch(url, { method, headers, ...(body !== undefined ? { body } : {}), redirect: 'manual', signal });
    jar.store(url, response.headers.getSetCookie());
    const location = response.headers.get('location');
    if (response.status < 300 || response.status > 399 || response.status === 304 || !location) {
      return answer(response, await readLimited(response, limits.maxBytes));
    }
    await response.body?.cancel();
    if (hop >= MAX_REDIRECTS) throw new Error(`stopped after ${MAX_REDIRECTS} redirects`);
    const next = new URL(location, url);
    if (next.protocol !== 'http:' && next.protocol !== 'https:') throw new Error(`redirected to a ${next.protocol} URL`);
    if (response.status <= 303 && method !== 'GET' && method !== 'HEAD') {
      method = 'GET';
      body = undefined;
      headers.delete('content-type');
    }
    // Credentials stay with the host they were meant for.
    if (next.host !== url.host) headers.delete('authorization');
    url = next;
  }
}

async function readLimited(response: Response, maxBytes: number): Promise<string> {
  const tooLarge = () =>
    new Error(`the answer is larger than ${maxBytes >= 1 << 20 ? `${maxBytes / (1 << 20)} MiB` : `${maxBytes} bytes`}`);
  if (Number(response.headers.get('content-length') ?? 0) > maxBytes) {
    await response.body?.cancel();
    throw tooLarge();
  }
  const reader = response.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function answer(response: Response, text: string): ExprMap {
  const headers = new Map<string, ExprValue>([...response.headers].map(([name, value]) => [name, value]));
  return new Map<string, ExprValue>([
    ['ok', response.status < 400],
    ['status', `${response.status} ${response.statusText || nodeHttp.STATUS_CODES[response.status] || ''}`.trim()],
    ['text', text],
    [
      'json',
      new ExprFunction('json', () => {
        try {
          return fromJson(JSON.parse(text));
        } catch {
          return null;
        }
      }),
    ],
    ['headers', headers],
  ]);
}

/** Node's fetch says "fetch failed" and hides the reason in `cause` (ECONNREFUSED, ENOTFOUND...). */
function describeFailure(error: unknown, url: URL): string {
  const cause = (error as { cause?: { message?: string; code?: string } }).cause;
  if (cause?.message === 'bad port') return `port ${url.port} is one that fetch refuses to connect to (the browsers' list of unsafe ports)`;
  const message = cause?.message || (error as Error).message || String(error);
  return cause?.code && !message.includes(cause.code) ? `${message} (${cause.code})` : message;
}
