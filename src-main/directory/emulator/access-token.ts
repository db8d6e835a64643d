import { sign, verify } from 'node:crypto';
import { fromBase64Url, toBase64Url } from './signing';
import type { SigningKey } from './signing-keys';

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

/** A JWT signed RS256 with the emulator's key, verifiable by anyone through its JWKS, as Entra ID's are. */
export function signJwt(claims: object, key: SigningKey): string {
  const head = toBase64Url({ typ: 'JWT', alg: 'RS256', kid: key.kid, x5t: key.kid });
  const body = toBase64Url(claims);
  return `${head}.${body}.${sign('sha256', Buffer.from(`${head}.${body}`), key.privateKey).toString('base64url')}`;
}

export const signAccessToken = (claims: AccessTokenClaims, key: SigningKey): string => signJwt(claims, key);

export type TokenCheck =
  { ok: true; claims: AccessTokenClaims } | { ok: false; reason: 'malformed' | 'signature' | 'expired' | 'audience' };

export function verifyAccessToken(token: string, key: SigningKey, nowSeconds: number): TokenCheck {
  const parts = token.split('.');
  if (parts.length !== 3) return { ok: false, reason: 'malformed' };
  const [head, body, signature] = parts as [string, string, string];
  const header = fromBase64Url(head) as { alg?: unknown } | undefined;
  const claims = fromBase64Url(body) as Partial<AccessTokenClaims> | undefined;
  if (!header || !claims || typeof claims !== 'object' || header.alg !== 'RS256' || !/^[A-Za-z0-9_-]+$/.test(signature))
    return { ok: false, reason: 'malformed' };
  if (!verify('sha256', Buffer.from(`${head}.${body}`), key.publicKey, Buffer.from(signature, 'base64url')))
    return { ok: false, reason: 'signature' };
  if (typeof claims.exp !== 'number' || typeof claims.nbf !== 'number' || typeof claims.tid !== 'string')
    return { ok: false, reason: 'malformed' };
  if (claims.aud !== GRAPH_AUDIENCE && claims.aud !== '00000003-0000-0000-c000-000000000000') return { ok: false, reason: 'audience' };
  // Entra ID allows five minutes of clock skew on nbf; expiry is exact here so tests can rely on it.
  if (nowSeconds >= claims.exp || nowSeconds + 300 < claims.nbf) return { ok: false, reason: 'expired' };
  return { ok: true, claims: claims as AccessTokenClaims };
}
