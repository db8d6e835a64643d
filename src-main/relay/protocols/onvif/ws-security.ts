import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { safeEqual as same } from '@main/platform/safe-equal';
import { elementText } from './soap';
import { attributeOf, elementBlock, xmlTags } from './xml-tags';

/** How far a token's Created may be from this clock (clients set theirs from GetSystemDateAndTime). */
const MAX_SKEW_MS = 5 * 60_000;
const NONCES_KEPT = 1000;

/**
 * Operations any client may call before it logs in (ONVIF Core's PRE_AUTH access class): what
 * it needs to find the services and set its clock for the digest.
 */
export const PRE_AUTH = new Set([
  'GetSystemDateAndTime',
  'GetCapabilities',
  'GetServices',
  'GetServiceCapabilities',
  'GetWsdlUrl',
  'GetEndpointReference',
]);

/**
 * Checks a SOAP request's login against the API's: a WS-Security UsernameToken (ONVIF Core
 * 5.12: PasswordDigest = base64(SHA-1(nonce + created + password)), or PasswordText), or HTTP
 * Basic as the rest of the API takes it. A digest is accepted once (its nonce is remembered)
 * and only within five minutes of this clock.
 */
export function createWsSecurityCheck(credentials: { username: string; password: string }) {
  const seen = new Map<string, number>();

  const basic = (req: IncomingMessage): boolean => {
    const match = /^Basic\s+(.+)$/i.exec(req.headers.authorization ?? '');
    if (!match?.[1]) return false;
    const decoded = Buffer.from(match[1], 'base64').toString('utf8');
    const at = decoded.indexOf(':');
    return at >= 0 && same(decoded.slice(0, at), credentials.username) && same(decoded.slice(at + 1), credentials.password);
  };

  const token = (xml: string, now: number): string | undefined => {
    const security = elementBlock(xml, 'Security');
    if (!security) return 'no login: send a WS-Security UsernameToken';
    const username = elementText(security, 'Username') ?? '';
    const password = elementText(security, 'Password') ?? '';
    if (!same(username, credentials.username)) return 'unknown user or wrong password';
    const passwordTag = [...xmlTags(security)].find((tag) => tag.name === 'Password' && !tag.closing);
    const type = (passwordTag && attributeOf(passwordTag, 'Type')) ?? '';
    if (!type.endsWith('#PasswordDigest')) return same(password, credentials.password) ? undefined : 'unknown user or wrong password';
    const nonce = elementText(security, 'Nonce') ?? '';
    const created = elementText(security, 'Created') ?? '';
    const when = Date.parse(created);
    if (!nonce || Number.isNaN(when)) return 'the digest needs a Nonce and a Created time';
    if (Math.abs(when - now) > MAX_SKEW_MS)
      return 'the Created time is more than five minutes from the device clock (GetSystemDateAndTime gives it)';
    const digest = createHash('sha1')
      .update(Buffer.concat([Buffer.from(nonce, 'base64'), Buffer.from(created), Buffer.from(credentials.password)]))
      .digest('base64');
    if (!same(digest, password)) return 'unknown user or wrong password';
    for (const [old, at] of seen) if (at < now - 2 * MAX_SKEW_MS || seen.size > NONCES_KEPT) seen.delete(old);
    if (seen.has(nonce)) return 'this login was used before (a replayed request)';
    seen.set(nonce, now);
    return undefined;
  };

  /** Why the request may not run the operation, or undefined when it may. */
  return (req: IncomingMessage, xml: string, now = Date.now()): string | undefined => (basic(req) ? undefined : token(xml, now));
}
