import { safeEqual } from '@main/platform/safe-equal';
import { digestResponse, parseChallenge } from './digest-auth';
import type { NonceState } from './digest-nonces';
import type { RtspMessage } from './rtsp-parser';

/**
 * Checks a request's credentials: Basic, or Digest (RFC 2617) with a nonce this server issued
 * and not yet expired, for this very request-URI (a header captured on one request opens no
 * other stream). `stale` tells a client with the right password to answer a new challenge.
 */
export function authorize(
  request: RtspMessage & { type: 'request' },
  account: { username: string; password: string; realm: string },
  nonceState: (nonce: string) => NonceState,
): { ok: true; nonce?: string } | { ok: false; stale?: boolean } {
  const { username, password, realm } = account;
  const header = request.headers.get('authorization') ?? '';
  const basic = /^Basic\s+(.+)$/i.exec(header);
  if (basic?.[1])
    return safeEqual(Buffer.from(basic[1], 'base64').toString('utf8'), `${username}:${password}`) ? { ok: true } : { ok: false };
  const { scheme, params } = parseChallenge(header);
  if (scheme !== 'digest' || params.username !== username || params.realm !== realm || !params.nonce || !params.uri) return { ok: false };
  if (!sameRequestUri(params.uri, request.uri)) return { ok: false };
  const expected = digestResponse({
    username,
    password,
    realm,
    nonce: params.nonce,
    method: request.method,
    uri: params.uri,
    qop: params.qop,
    nc: params.nc,
    cnonce: params.cnonce,
  });
  if (!safeEqual(params.response ?? '', expected)) return { ok: false };
  const state = nonceState(params.nonce);
  if (state === 'fresh') return { ok: true, nonce: params.nonce };
  return { ok: false, stale: state === 'expired' };
}

/** The Digest `uri` names the request's URI: as sent, or its path and query (some players send only that). */
function sameRequestUri(digestUri: string, requestUri: string): boolean {
  if (digestUri === requestUri) return true;
  try {
    const request = new URL(requestUri);
    return digestUri === `${request.pathname}${request.search}`;
  } catch {
    return false;
  }
}
