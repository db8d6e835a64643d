import type { IncomingMessage } from 'node:http';
import { verifyAccessToken, type AccessTokenClaims } from './access-token';
import { GraphError, accessDenied, badRequest, type GraphArea } from './graph-error';
import { findUser, type Principals, type UserPrincipal } from './principals';
import type { SigningKey } from './signing-keys';

/** Who is calling: an app on its own (client credentials) or a signed-in user through an app. */
export interface Caller {
  claims: AccessTokenClaims;
  kind: 'app' | 'user';
  permissions: Set<string>;
  /** The signed-in user (delegated tokens only). */
  user?: UserPrincipal;
}

const WWW_AUTHENTICATE =
  'Bearer realm="", authorization_uri="https://login.microsoftonline.com/common/oauth2/authorize", client_id="00000003-0000-0000-c000-000000000000"';

const unauthorized = (message: string): GraphError =>
  new GraphError(401, 'InvalidAuthenticationToken', message, { 'WWW-Authenticate': WWW_AUTHENTICATE });

/** Checks the bearer token of a /v1.0 request: signature, tenant, lifetime, and that its user still exists. */
export function authenticate(req: IncomingMessage, principals: Principals, key: SigningKey, nowMs: number): Caller {
  const header = req.headers.authorization;
  if (!header || header.trim() === '') throw unauthorized('Access token is empty.');
  const match = /^Bearer\s+(\S+)$/i.exec(header.trim());
  if (!match) throw unauthorized('Access token validation failure.');
  const check = verifyAccessToken(match[1]!, key, Math.floor(nowMs / 1000));
  if (!check.ok)
    throw unauthorized(
      check.reason === 'expired'
        ? 'Access token has expired or is not yet valid.'
        : check.reason === 'audience'
          ? 'Access token validation failure. Invalid audience.'
          : 'Access token validation failure.',
    );
  const { claims } = check;
  if (claims.tid !== principals.tenant) throw unauthorized('Access token validation failure. Invalid audience.');
  if (!principals.apps.some((a) => a.clientId === claims.appid)) throw unauthorized('Access token validation failure.');
  if (claims.idtyp === 'user') {
    const user = findUser(principals, claims.oid);
    if (!user) throw unauthorized('Access token validation failure.');
    return { claims, kind: 'user', user, permissions: new Set((claims.scp ?? '').split(' ').filter(Boolean)) };
  }
  return { claims, kind: 'app', permissions: new Set(claims.roles ?? []) };
}

/** Any one of the permissions lets the call through; otherwise 403 in the area's own words. */
export function requirePermission(caller: Caller, area: GraphArea, anyOf: readonly string[]): void {
  if (!anyOf.some((p) => caller.permissions.has(p))) throw accessDenied(area);
}

/** `/me` needs a signed-in user, as on Graph. */
export function meOf(caller: Caller): UserPrincipal {
  if (!caller.user) throw badRequest('BadRequest', '/me request is only valid with delegated authentication flow.');
  return caller.user;
}

export const PERMISSIONS = {
  calendarRead: ['Calendars.Read', 'Calendars.ReadBasic', 'Calendars.ReadWrite', 'Calendars.Read.Shared', 'Calendars.ReadWrite.Shared'],
  calendarWrite: ['Calendars.ReadWrite', 'Calendars.ReadWrite.Shared'],
  /** A user token reaches another user's calendar only with a .Shared permission. */
  calendarReadShared: ['Calendars.Read.Shared', 'Calendars.ReadWrite.Shared'],
  calendarWriteShared: ['Calendars.ReadWrite.Shared'],
  entitlementRead: ['EntitlementManagement.Read.All', 'EntitlementManagement.ReadWrite.All'],
  entitlementWrite: ['EntitlementManagement.ReadWrite.All'],
  adminUnitRead: ['AdministrativeUnit.Read.All', 'AdministrativeUnit.ReadWrite.All', 'Directory.Read.All', 'Directory.ReadWrite.All'],
  roleRead: ['RoleManagement.Read.Directory', 'RoleManagement.ReadWrite.Directory', 'Directory.Read.All', 'Directory.ReadWrite.All'],
  roleWrite: ['RoleManagement.ReadWrite.Directory'],
  userRead: ['User.Read', 'User.Read.All', 'User.ReadBasic.All', 'Directory.Read.All', 'Directory.ReadWrite.All'],
} as const;
