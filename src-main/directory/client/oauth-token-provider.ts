import { GraphError } from './graph-error';
import type { TokenProvider } from './graph-client';

// Tokens straight from an OAuth2 v2 token endpoint (`.../{tenant}/oauth2/v2.0/token`), for the
// local emulator and for app-only access. @azure/msal-node would do this too, but it refuses any
// authority that is not https, and the embedded emulator serves plain http on loopback; a local
// CA only to please the library would be more moving parts than these two grants need.

/** The scope of every Graph token: the permissions granted to the app, as one `.default`. */
export const GRAPH_DEFAULT_SCOPE = 'https://graph.microsoft.com/.default';

export interface EndpointTokenOptions {
  /** e.g. `http://127.0.0.1:1986/<tenant>/oauth2/v2.0/token` */
  tokenUrl: string;
  clientId: string;
  /** Required for client credentials; optional for a public client's password grant. */
  clientSecret?: string;
  scopes?: string[];
  fetch?: typeof fetch;
  now?: () => number;
  /** A cached token is renewed this long before it expires (default 5 min, at most half its life). */
  refreshMarginMs?: number;
}

export type TokenGrant = { kind: 'client_credentials' } | { kind: 'password'; username: string; password: string };

interface TokenResponse {
  access_token?: string;
  token_type?: string;
  expires_in?: number | string;
  refresh_token?: string;
  error?: string;
  error_description?: string;
}

interface CachedToken {
  token: string;
  renewAt: number;
}

function formOf(fields: Record<string, string | undefined>): URLSearchParams {
  const form = new URLSearchParams();
  for (const [key, value] of Object.entries(fields)) if (value !== undefined) form.set(key, value);
  return form;
}

/**
 * A TokenProvider for one grant against a token endpoint. The token is cached until shortly
 * before it expires; concurrent callers share one request; `invalidate` (after a 401) drops it.
 * A password grant that returned a refresh token renews with it, falling back to the password.
 */
export function createEndpointTokenProvider(options: EndpointTokenOptions, grant: TokenGrant): TokenProvider {
  const doFetch = options.fetch ?? fetch;
  const now = options.now ?? Date.now;
  const margin = options.refreshMarginMs ?? 5 * 60_000;
  const scope = (options.scopes ?? [GRAPH_DEFAULT_SCOPE]).join(' ');
  if (grant.kind === 'client_credentials' && !options.clientSecret)
    throw new TypeError('the client credentials grant needs a client secret');

  let cached: CachedToken | null = null;
  let refreshToken: string | null = null;
  let inflight: Promise<string> | null = null;

  async function post(fields: Record<string, string | undefined>, signal?: AbortSignal): Promise<TokenResponse & { access_token: string }> {
    let response: Response;
    try {
      response = await doFetch(options.tokenUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: formOf({ client_id: options.clientId, client_secret: options.clientSecret, scope, ...fields }),
        signal,
        redirect: 'error',
      });
    } catch (error) {
      if (signal?.aborted) throw error;
      // fetch says only "fetch failed"; its cause says why (a refused certificate, a refused connection).
      const cause = (error as Error).cause;
      throw new GraphError(
        0,
        'networkError',
        `cannot reach the token endpoint ${new URL(options.tokenUrl).origin}: ${cause instanceof Error ? cause.message : (error as Error).message}`,
      );
    }
    const text = await response.text();
    let body: TokenResponse = {};
    try {
      body = text ? (JSON.parse(text) as TokenResponse) : {};
    } catch {
      body = {};
    }
    if (!response.ok || typeof body.access_token !== 'string') {
      const code = body.error ?? `http${response.status}`;
      const message = body.error_description ?? `the token endpoint answered ${response.status} without a token`;
      throw new GraphError(response.ok ? 502 : response.status, code, message, response.headers.get('request-id'), null, null, body);
    }
    return body as TokenResponse & { access_token: string };
  }

  async function passwordGrant(grant: { username: string; password: string }, signal?: AbortSignal) {
    if (refreshToken) {
      try {
        const body = await post({ grant_type: 'refresh_token', refresh_token: refreshToken }, signal);
        if (body.refresh_token) refreshToken = body.refresh_token;
        return body;
      } catch (error) {
        if (signal?.aborted) throw error;
        refreshToken = null; // expired or revoked: sign in with the password again
      }
    }
    const body = await post({ grant_type: 'password', username: grant.username, password: grant.password }, signal);
    refreshToken = body.refresh_token ?? null;
    return body;
  }

  async function fetchToken(signal?: AbortSignal): Promise<string> {
    const startedAt = now();
    const body =
      grant.kind === 'client_credentials' ? await post({ grant_type: 'client_credentials' }, signal) : await passwordGrant(grant, signal);
    const lifetimeMs = Math.max(0, Number(body.expires_in ?? 3600) * 1000);
    cached = { token: body.access_token, renewAt: startedAt + lifetimeMs - Math.min(margin, lifetimeMs / 2) };
    return body.access_token;
  }

  return {
    async getToken(signal) {
      if (cached && now() < cached.renewAt) return cached.token;
      inflight ??= fetchToken(signal).finally(() => {
        inflight = null;
      });
      return inflight;
    },
    invalidate(token) {
      if (cached?.token === token) cached = null;
    },
  };
}

export const createClientCredentialsTokenProvider = (options: EndpointTokenOptions & { clientSecret: string }): TokenProvider =>
  createEndpointTokenProvider(options, { kind: 'client_credentials' });

export const createPasswordTokenProvider = (options: EndpointTokenOptions & { username: string; password: string }): TokenProvider =>
  createEndpointTokenProvider(options, { kind: 'password', username: options.username, password: options.password });
