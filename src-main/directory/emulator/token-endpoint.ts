import { createHash, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { GRAPH_AUDIENCE, signAccessToken, signJwt, type AccessTokenClaims } from './access-token';
import type { AuthorizationCodes, RedeemFailure } from './authorization-codes';
import type { DeviceCodes } from './device-codes';
import { MULTI_TENANT, resolveTenant } from './tenant-names';
import { readBody } from './graph-http';
import type { AppPrincipal, Principals, UserPrincipal } from './principals';
import { findUser } from './principals';
import type { SigningKey } from './signing-keys';
import { fromBase64Url, hmac, sameSignature, toBase64Url } from './signing';
import { authenticateClient, type ClientKind } from './client-auth';
import { missing, OAuthError, sendOAuthError } from './oauth-error';

export interface TokenEndpointDeps {
  principals: Principals;
  /** Signs refresh tokens and checks secrets (HMAC). */
  key: Buffer;
  /** Signs access and ID tokens (RS256). */
  signing: SigningKey;
  /** Device code sign-ins under way (the device polls this endpoint). */
  deviceCodes: DeviceCodes;
  /** Codes the authorize endpoint issued after a browser sign-in. */
  authorizationCodes: AuthorizationCodes;
  clock: () => number;
  tokenLifetimeSeconds: number;
}

const GRAPH_RESOURCES = [GRAPH_AUDIENCE, '00000003-0000-0000-c000-000000000000'];
/** OpenID scopes a sign-in may ask for besides Graph permissions. */
const OIDC_SCOPES = new Set(['openid', 'profile', 'email', 'offline_access']);
const REFRESH_LIFETIME_SECONDS = 90 * 86_400;
export const DEVICE_CODE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

/** POST /{tenant}/oauth2/v2.0/token: client credentials, password (ROPC), refresh_token, device code and authorization code (PKCE) grants. */
export async function handleTokenRequest(
  deps: TokenEndpointDeps,
  tenantInPath: string,
  req: IncomingMessage,
  res: ServerResponse,
  origin: string,
): Promise<void> {
  const now = deps.clock();
  try {
    const reply = await issue(deps, tenantInPath, req, now, origin);
    const body = JSON.stringify(reply);
    res.writeHead(200, {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': Buffer.byteLength(body),
      'Cache-Control': 'no-store',
      Pragma: 'no-cache',
    });
    res.end(body);
  } catch (error) {
    if (error instanceof OAuthError) sendOAuthError(res, error, now);
    else throw error;
  }
}

async function issue(
  deps: TokenEndpointDeps,
  tenantInPath: string,
  req: IncomingMessage,
  now: number,
  origin: string,
): Promise<Record<string, unknown>> {
  const { principals } = deps;
  const type = String(req.headers['content-type'] ?? '');
  const form = new URLSearchParams((await readBody(req, 64 * 1024)).toString('utf8'));
  if (!type.toLowerCase().startsWith('application/x-www-form-urlencoded')) throw missing('grant_type');
  const grant = form.get('grant_type');
  if (!grant) throw missing('grant_type');
  const multiTenant = MULTI_TENANT.has(tenantInPath.toLowerCase());
  if (!resolveTenant(tenantInPath, principals) || (multiTenant && grant === 'client_credentials')) {
    throw new OAuthError(
      400,
      'invalid_request',
      90002,
      `Tenant '${tenantInPath}' not found. Check to make sure you have the correct tenant ID and are signing into the correct cloud.`,
    );
  }
  const clientId = form.get('client_id');
  if (!clientId) throw missing('client_id');
  const app = principals.apps.find((a) => a.clientId === clientId);
  if (!app)
    throw new OAuthError(
      400,
      'unauthorized_client',
      700016,
      `Application with identifier '${clientId}' was not found in the directory '${principals.tenant}'.`,
    );
  const secret = form.get('client_secret');
  // Every grant checks a secret that is sent; which grants need one is decided per grant below.
  const clientKind = (secretRequired: boolean): ClientKind => authenticateClient(deps.key, app, grant, secret, secretRequired);

  if (grant === 'client_credentials') {
    clientKind(true);
    const scope = form.get('scope');
    if (!scope) throw missing('scope');
    const resource = scope.trim().replace(/\/\.default$/, '');
    if (!scope.trim().endsWith('/.default') || scope.trim().includes(' '))
      throw new OAuthError(
        400,
        'invalid_scope',
        1002012,
        `The provided value for scope ${scope} is not valid. Client credential flows must have a scope value with /.default suffixed to the resource identifier (application ID URI).`,
      );
    if (!GRAPH_RESOURCES.includes(resource))
      throw new OAuthError(
        400,
        'invalid_resource',
        500011,
        `The resource principal named ${resource} was not found in the tenant named ${principals.tenant}.`,
      );
    return tokenReply(deps, appClaims(deps, app, now), undefined);
  }

  if (grant === 'password') {
    const client = clientKind(false);
    const username = form.get('username');
    const password = form.get('password');
    if (!username) throw missing('username');
    if (!password) throw missing('password');
    const scope = form.get('scope');
    if (!scope) throw missing('scope');
    const user = findUser(principals, username);
    if (!user || user.userPrincipalName.toLowerCase() !== username.toLowerCase())
      throw new OAuthError(
        400,
        'invalid_grant',
        50034,
        `The user account {EUII Hidden} does not exist in the ${principals.tenant} directory. To sign into this application, the account must be added to the directory.`,
      );
    if (!sameSignature(hmac(deps.key, password), hmac(deps.key, user.password)))
      throw new OAuthError(400, 'invalid_grant', 50126, 'Error validating credentials due to invalid username or password.');
    const scopes = grantedScopes(app, scope);
    return userTokenReply(deps, { app, user, client, scopes, asked: scope, now, origin, clientInfo: form.get('client_info') === '1' });
  }

  if (grant === 'refresh_token') {
    const token = form.get('refresh_token');
    if (!token) throw missing('refresh_token');
    const read = readRefreshToken(deps, token, now);
    const state = read?.client === app.clientId ? read : undefined;
    // A token issued to the app as a confidential client is redeemed only with its secret, as in
    // Entra: whoever holds a leaked token still needs the secret. (Tokens from before the kind
    // was recorded count as confidential.) A secret that is sent is checked even with a bad token.
    const client = clientKind(state !== undefined && state.kind !== 'public');
    if (!state) throw new OAuthError(400, 'invalid_grant', 9002313, 'Invalid request. Request is malformed or invalid.');
    const user = findUser(principals, state.user);
    if (!user) throw new OAuthError(400, 'invalid_grant', 50034, 'The user account {EUII Hidden} does not exist in the directory.');
    // A refresh may ask for more than the sign-in did (incremental consent): granted when the
    // app holds the permission (consented), else 65001 as Entra answers; without a scope, the same as before.
    const askedScope = form.get('scope');
    const wanted = askedScope ? grantedScopes(app, askedScope) : [];
    const scopes = [...new Set([...state.scopes.filter((s) => app.permissions.includes(s)), ...wanted])];
    const asked = `${askedScope ?? ''} offline_access`;
    return userTokenReply(deps, { app, user, client, scopes, asked, now, origin, clientInfo: form.get('client_info') === '1' });
  }

  // msal sends the short name; RFC 8628 clients the urn. Entra takes both.
  if (grant === DEVICE_CODE_GRANT || grant === 'device_code') {
    const client = clientKind(false);
    const deviceCode = form.get('device_code');
    if (!deviceCode) throw missing('device_code');
    const polled = deps.deviceCodes.poll(deviceCode, app.clientId);
    if (!polled)
      throw new OAuthError(400, 'invalid_grant', 70000, "The provided value for the input parameter 'device_code' is not valid.");
    const { state } = polled;
    if (state.status === 'pending')
      throw new OAuthError(400, 'authorization_pending', 70016, 'OAuth 2.0 device flow error. Authorization is pending. Continue polling.');
    if (state.status === 'expired')
      throw new OAuthError(
        400,
        'expired_token',
        70020,
        "The provided value for the input parameter 'device_code' is not valid. This device code has expired.",
      );
    if (state.status === 'declined') throw new OAuthError(400, 'authorization_declined', 70000, 'The user declined the sign-in.');
    const user = findUser(principals, state.userId);
    if (!user) throw new OAuthError(400, 'invalid_grant', 50034, 'The user account {EUII Hidden} does not exist in the directory.');
    const scopes = grantedScopes(app, polled.scope);
    return userTokenReply(deps, {
      app,
      user,
      client,
      scopes,
      asked: polled.scope,
      now,
      origin,
      clientInfo: form.get('client_info') === '1',
    });
  }

  if (grant === 'authorization_code') {
    const code = form.get('code');
    if (!code) throw missing('code');
    const verifier = form.get('code_verifier');
    // A public client (a desktop app) proves itself with PKCE; without it, the app's secret.
    const client = clientKind(verifier === null);
    const grantOrFailure = deps.authorizationCodes.redeem(code, app.clientId, form.get('redirect_uri'), verifier);
    if (typeof grantOrFailure === 'string') throw codeRefused(grantOrFailure, app);
    const user = findUser(principals, grantOrFailure.userId);
    if (!user) throw new OAuthError(400, 'invalid_grant', 50034, 'The user account {EUII Hidden} does not exist in the directory.');
    const scopes = grantedScopes(app, grantOrFailure.scope);
    return userTokenReply(deps, {
      app,
      user,
      client,
      scopes,
      asked: grantOrFailure.scope,
      now,
      origin,
      clientInfo: form.get('client_info') === '1',
      ...(grantOrFailure.nonce !== undefined ? { nonce: grantOrFailure.nonce } : {}),
    });
  }

  throw new OAuthError(400, 'unsupported_grant_type', 70003, `The app requested an unsupported grant type '${grant}'.`);
}

/** Entra's answer to a code it will not redeem. */
function codeRefused(failure: RedeemFailure, app: AppPrincipal): OAuthError {
  switch (failure) {
    case 'expired':
      return new OAuthError(
        400,
        'invalid_grant',
        70008,
        'The provided authorization code or refresh token has expired due to inactivity. Send a new interactive authorization request for this user and resource.',
      );
    case 'redeemed':
      return new OAuthError(
        400,
        'invalid_grant',
        54005,
        'OAuth2 Authorization code was already redeemed, please retry with a new valid code or use an existing refresh token.',
      );
    case 'otherRedirect':
      return new OAuthError(
        400,
        'invalid_grant',
        500112,
        'The reply address does not match the reply address provided when requesting Authorization code.',
      );
    case 'verifierMissing':
      return new OAuthError(
        400,
        'invalid_grant',
        50148,
        'The code_verifier does not match the code_challenge supplied in the authorization request for PKCE.',
      );
    case 'verifierMismatch':
      return new OAuthError(
        400,
        'invalid_grant',
        501481,
        'The Code_Verifier does not match the code_challenge supplied in the authorization request.',
      );
    case 'otherClient':
      return new OAuthError(
        400,
        'invalid_grant',
        70000,
        `The provided authorization code was not issued to the application '${app.clientId}'.`,
      );
    default:
      return new OAuthError(400, 'invalid_grant', 9002313, 'Invalid request. Request is malformed or invalid.');
  }
}

/**
 * Graph permissions a user token gets: all the app's for `.default`, else those asked for. The
 * app's permissions are what an administrator consented to; asking for any other is Entra's
 * `invalid_grant` / `consent_required` (AADSTS65001), naming what is missing.
 */
export function grantedScopes(app: AppPrincipal, scope: string): string[] {
  const asked = scope.split(/\s+/).filter((s) => s !== '' && !OIDC_SCOPES.has(s));
  const out = new Set<string>();
  const notConsented: string[] = [];
  for (const item of asked) {
    const bare = GRAPH_RESOURCES.reduce((s, r) => (s.startsWith(`${r}/`) ? s.slice(r.length + 1) : s), item);
    if (bare === '.default') {
      for (const p of app.permissions) out.add(p);
    } else if (app.permissions.includes(bare)) out.add(bare);
    else if (!notConsented.includes(bare)) notConsented.push(bare);
  }
  if (notConsented.length > 0) throw consentRequired(app, notConsented);
  return [...out];
}

function consentRequired(app: AppPrincipal, permissions: string[]): OAuthError {
  return new OAuthError(
    400,
    'invalid_grant',
    65001,
    `The user or administrator has not consented to use the application with ID '${app.clientId}' named '${app.displayName}'. Send an interactive authorization request for this user and resource. Permission${permissions.length === 1 ? '' : 's'} not consented: ${permissions.join(', ')}.`,
    'consent_required',
  );
}

function baseClaims(deps: TokenEndpointDeps, app: AppPrincipal, now: number): Omit<AccessTokenClaims, 'oid' | 'idtyp'> {
  const iat = Math.floor(now / 1000);
  return {
    aud: GRAPH_AUDIENCE,
    iss: `https://sts.windows.net/${deps.principals.tenant}/`,
    iat,
    nbf: iat,
    exp: iat + deps.tokenLifetimeSeconds,
    tid: deps.principals.tenant,
    appid: app.clientId,
    uti: randomUUID().replace(/-/g, '').slice(0, 22),
    ver: '1.0',
  };
}

function appClaims(deps: TokenEndpointDeps, app: AppPrincipal, now: number): AccessTokenClaims {
  return { ...baseClaims(deps, app, now), oid: app.servicePrincipalId, idtyp: 'app', roles: app.permissions };
}

function userClaims(deps: TokenEndpointDeps, app: AppPrincipal, user: UserPrincipal, scopes: string[], now: number): AccessTokenClaims {
  return {
    ...baseClaims(deps, app, now),
    oid: user.id,
    idtyp: 'user',
    scp: scopes.join(' '),
    upn: user.userPrincipalName,
    name: user.displayName,
  };
}

interface UserSignIn {
  app: AppPrincipal;
  /** Whether the app proved itself with its secret: its refresh token then needs the secret too. */
  client: ClientKind;
  user: UserPrincipal;
  scopes: string[];
  /** The scope parameter as sent: openid brings an ID token, offline_access a refresh token. */
  asked: string;
  now: number;
  origin: string;
  /** msal sends client_info=1 and builds the account from the answer. */
  clientInfo: boolean;
  /** The authorize request's nonce, repeated in the ID token. */
  nonce?: string;
}

/** A signed-in user's tokens: access token, and as asked an ID token, client_info and a refresh token. */
function userTokenReply(deps: TokenEndpointDeps, signIn: UserSignIn): Record<string, unknown> {
  const { app, user, scopes, asked, now } = signIn;
  const askedScopes = asked.split(/\s+/);
  const tid = deps.principals.tenant;
  const iat = Math.floor(now / 1000);
  const idToken = askedScopes.includes('openid')
    ? signJwt(
        {
          aud: app.clientId,
          iss: `${signIn.origin}/${tid}/v2.0`,
          iat,
          nbf: iat,
          exp: iat + deps.tokenLifetimeSeconds,
          sub: createHash('sha256').update(`${app.clientId}:${user.id}`).digest('base64url'),
          oid: user.id,
          tid,
          name: user.displayName,
          preferred_username: user.userPrincipalName,
          ...(signIn.nonce !== undefined ? { nonce: signIn.nonce } : {}),
          ver: '2.0',
        },
        deps.signing,
      )
    : undefined;
  return {
    ...tokenReply(deps, userClaims(deps, app, user, scopes, now), refreshFor(deps, signIn), asked),
    ...(idToken ? { id_token: idToken } : {}),
    ...(signIn.clientInfo ? { client_info: toBase64Url({ uid: user.id, utid: tid }) } : {}),
  };
}

/**
 * The `scope` of a user token reply: each Graph permission in the form it was asked for (bare
 * `Calendars.Read`, or with the resource, `https://graph.microsoft.com/Calendars.Read`; `.default`
 * answers with the resource), then the OpenID scopes asked for.
 */
function replyScope(granted: string[], asked: string): string {
  const askedItems = asked.split(/\s+/).filter(Boolean);
  const bare = new Set(askedItems.filter((item) => !item.includes('/')));
  const graph = granted.map((permission) => (bare.has(permission) ? permission : `${GRAPH_AUDIENCE}/${permission}`));
  const openId = askedItems.filter((item) => item === 'openid' || item === 'profile' || item === 'email');
  return [...graph, ...openId].join(' ');
}

function tokenReply(
  deps: TokenEndpointDeps,
  claims: AccessTokenClaims,
  refreshToken: string | undefined,
  asked = '',
): Record<string, unknown> {
  return {
    token_type: 'Bearer',
    ...(claims.scp !== undefined ? { scope: replyScope(claims.scp.split(' ').filter(Boolean), asked) } : {}),
    expires_in: deps.tokenLifetimeSeconds,
    ext_expires_in: deps.tokenLifetimeSeconds,
    access_token: signAccessToken(claims, deps.signing),
    ...(refreshToken ? { refresh_token: refreshToken } : {}),
  };
}

interface RefreshState {
  client: string;
  /** How the client signed in; absent in tokens issued before it was recorded. */
  kind?: ClientKind;
  user: string;
  scopes: string[];
  exp: number;
}

/** A refresh token when the sign-in asked for offline_access (signed, 90 days). */
function refreshFor(deps: TokenEndpointDeps, signIn: UserSignIn): string | undefined {
  const { app, user, client, scopes, asked, now } = signIn;
  if (!asked.split(/\s+/).includes('offline_access')) return undefined;
  const payload = toBase64Url({
    client: app.clientId,
    kind: client,
    user: user.id,
    scopes,
    exp: Math.floor(now / 1000) + REFRESH_LIFETIME_SECONDS,
  } satisfies RefreshState);
  return `rt.${payload}.${hmac(deps.key, `refresh:${payload}`)}`;
}

function readRefreshToken(deps: TokenEndpointDeps, token: string, now: number): RefreshState | undefined {
  const [prefix, payload, signature] = token.split('.');
  if (prefix !== 'rt' || !payload || !signature || !sameSignature(signature, hmac(deps.key, `refresh:${payload}`))) return undefined;
  const state = fromBase64Url(payload) as RefreshState | undefined;
  if (!state || typeof state.exp !== 'number' || state.exp <= Math.floor(now / 1000) || !Array.isArray(state.scopes)) return undefined;
  return state;
}
