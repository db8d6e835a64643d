/**
 * URL rules of the Graph client: where a request goes, and whether the bearer token may travel
 * with it. Kept apart from the fetch loop so they can be tested as plain functions.
 */

const ABSOLUTE = /^[a-z][a-z0-9+.-]*:\/\//i;

/** The base without a trailing slash, checked to be an http(s) URL. */
export function normalizeBaseUrl(baseUrl: string): string {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new TypeError(`Graph base URL is not a URL: ${baseUrl}`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new TypeError(`Graph base URL must be http(s): ${baseUrl}`);
  if (url.search || url.hash) throw new TypeError(`Graph base URL must not carry a query or fragment: ${baseUrl}`);
  return url.href.replace(/\/+$/, '');
}

/**
 * OData wants `$select=a,b` with its `$` and commas as written; URLSearchParams would escape both
 * (`%24select=a%2Cb`). Both forms are equal to a server that decodes the query, but the literal
 * form is what Graph documents and what shows up readable in logs.
 */
function encodeQueryPart(value: string): string {
  return encodeURIComponent(value).replace(/%24/g, '$').replace(/%2C/gi, ',');
}

/**
 * The URL of a request: a relative path is appended to the base; an absolute URL (a nextLink or
 * deltaLink) is used as given, because its tokens must reach the server unchanged. Extra query
 * parameters are appended in both cases.
 */
export function resolveRequestUrl(baseUrl: string, path: string, query?: Record<string, string>): string {
  let url: string;
  if (ABSOLUTE.test(path)) url = path;
  else if (path === '' || path.startsWith('/') || path.startsWith('?')) url = `${baseUrl}${path}`;
  else url = `${baseUrl}/${path}`;
  const entries = Object.entries(query ?? {});
  if (entries.length === 0) return url;
  const extra = entries.map(([key, value]) => `${encodeQueryPart(key)}=${encodeQueryPart(value)}`).join('&');
  const hashAt = url.indexOf('#');
  const withoutHash = hashAt === -1 ? url : url.slice(0, hashAt);
  const separator = withoutHash.includes('?') ? (withoutHash.endsWith('?') || withoutHash.endsWith('&') ? '' : '&') : '?';
  return `${withoutHash}${separator}${extra}`;
}

/**
 * The token goes only where the base URL points: same scheme, host and port. A nextLink, a
 * redirect or a caller-given URL to anywhere else is requested without it, so a hostile or
 * mistaken link can never collect the user's token.
 */
export function mayCarryToken(baseUrl: string, url: string): boolean {
  try {
    return new URL(url).origin === new URL(baseUrl).origin;
  } catch {
    return false;
  }
}
