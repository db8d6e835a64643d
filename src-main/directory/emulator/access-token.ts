import { fromBase64Url, hmac, sameSignature, toBase64Url } from './signing';

/** The claims of an emulator access token: the ones Graph reads from an Entra ID token. */
export interface AccessTokenClaims {
  aud: string;
  iss: string;
  iat: number;
  nbf: number;
  exp: number;
  tid: string;
  appid: string;
  /** The signed-in user (delegated) or the app's service principal (application). */
  oid: string;
  /** `app` for client credentials, `user` for a signed-in user. */
  idtyp: 'app' | 'user';
  /** Application permissions. */
  roles?: string[];
  /** Delegated permissions, space-separated. */
  scp?: string;
  upn?: string;
  name?: string;
  uti: string;
  ver: '1.0';
}

export const GRAPH_AUDIENCE = 'https://graph.microsoft.com';

/** A JWT (HS256) over the claims, so it looks and decodes like the real thing. */
export function signAccessToken(claims: AccessTokenClaims, key: Buffer): string {
  const head = toBase64Url({ typ: 'JWT', alg: 'HS256', kid: 'relay-console-emulator' });
  const body = toBase64Url(claims);
  return `${head}.${body}.${hmac(key, `${head}.${body}`)}`;
}

export type TokenCheck = { ok: true; claims: AccessTokenClaims } | { ok: false; reason: 'malformed' | 'signature' | 'expired' | 'audience' };

export function verifyAccessToken(token: string, key: Buffer, nowSeconds: number): TokenCheck {
  const parts = token.split('.');
  if (parts.length !== 3) return { ok: false, reason: 'malformed' };
  const [head, body, signature] = parts as [string, string, string];
  const header = fromBase64Url(head) as { alg?: unknown } | undefined;
  const claims = fromBase64Url(body) as Partial<AccessTokenClaims> | undefined;
  if (!header || !claims || typeof claims !== 'object' || header.alg !== 'HS256') return { ok: false, reason: 'malformed' };
  if (!sameSignature(signature, hmac(key, `${head}.${body}`))) return { ok: false, reason: 'signature' };
  if (typeof claims.exp !== 'number' || typeof claims.nbf !== 'number' || typeof claims.tid !== 'string') return { ok: false, reason: 'malformed' };
  if (claims.aud !== GRAPH_AUDIENCE && claims.aud !== '00000003-0000-0000-c000-000000000000') return { ok: false, reason: 'audience' };
  // Entra ID allows five minutes of clock skew on nbf; expiry is exact here so tests can rely on it.
  if (nowSeconds >= claims.exp || nowSeconds + 300 < claims.nbf) return { ok: false, reason: 'expired' };
  return { ok: true, claims: claims as AccessTokenClaims };
}
