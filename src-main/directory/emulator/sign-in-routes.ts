import type { IncomingMessage, ServerResponse } from 'node:http';
import type { DeviceCodes } from './device-codes';
import { readBody } from './graph-http';
import { findUser, type Principals } from './principals';
import { hmac, sameSignature } from './signing';
import { notice, sendHtml, signInDocument } from './sign-in-page';
import type { SigningKey } from './signing-keys';
import { MULTI_TENANT, resolveTenant } from './tenant-names';
import { missing, OAuthError, sendOAuthError } from './oauth-error';
import { tenantSegment, type EndpointRequest, type EndpointRoute } from './graph-route';

export interface SignInDeps {
  principals: Principals;
  signing: SigningKey;
  deviceCodes: DeviceCodes;
  /** Compares passwords through HMAC (no early exit on the first differing byte). */
  key: Buffer;
  clock: () => number;
}

const sendJson = (res: ServerResponse, status: number, body: unknown) => {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
    'Cache-Control': 'no-store',
  });
  res.end(text);
};

const unknownTenant = (segment: string) =>
  new OAuthError(
    400,
    'invalid_tenant',
    90002,
    `Tenant '${segment}' not found. Check to make sure you have the correct tenant ID and are signing into the correct cloud.`,
  );

/** The OpenID Connect discovery document of the tenant (or of organizations/common), with this emulator's addresses. */
function openIdConfiguration(origin: string, segment: string, tenantId: string): Record<string, unknown> {
  const base = `${origin}/${encodeURIComponent(segment)}`;
  const issuerTenant = MULTI_TENANT.has(segment.toLowerCase()) ? '{tenantid}' : tenantId;
  return {
    token_endpoint: `${base}/oauth2/v2.0/token`,
    token_endpoint_auth_methods_supported: ['client_secret_post', 'private_key_jwt', 'client_secret_basic'],
    jwks_uri: `${base}/discovery/v2.0/keys`,
    response_modes_supported: ['query', 'fragment', 'form_post'],
    subject_types_supported: ['pairwise'],
    id_token_signing_alg_values_supported: ['RS256'],
    response_types_supported: ['code', 'id_token', 'code id_token', 'id_token token'],
    scopes_supported: ['openid', 'profile', 'email', 'offline_access'],
    issuer: `${origin}/${issuerTenant}/v2.0`,
    request_uri_parameter_supported: false,
    userinfo_endpoint: `${origin}/v1.0/me`,
    authorization_endpoint: `${base}/oauth2/v2.0/authorize`,
    device_authorization_endpoint: `${base}/oauth2/v2.0/devicecode`,
    http_logout_supported: true,
    frontchannel_logout_supported: true,
    end_session_endpoint: `${base}/oauth2/v2.0/logout`,
    claims_supported: ['sub', 'iss', 'aud', 'exp', 'iat', 'auth_time', 'nonce', 'preferred_username', 'name', 'tid', 'ver', 'oid'],
    kerberos_endpoint: `${base}/kerberos`,
    tenant_region_scope: 'WW',
    cloud_instance_name: new URL(origin).host,
    cloud_graph_host_name: new URL(origin).host,
    msgraph_host: new URL(origin).host,
  };
}

/** The device login page: the code and the person's name and password. */
function deviceLoginPage(message: string | null, error: boolean): string {
  return signInDocument(
    'Sign in',
    `<h1>Enter code</h1><p>Sign in to the Graph emulator on another device.</p>
${notice(message, error)}
<form method="post" action="/devicelogin"><label for="otc">Code</label><input id="otc" name="otc" autocomplete="one-time-code" required>
<label for="username">User name</label><input id="username" name="username" autocomplete="username" required>
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit">Sign in</button></form>`,
  );
}

/**
 * What msal and other OpenID clients ask of the sign-in service besides the token endpoint:
 * discovery (`/{tenant}/v2.0/.well-known/openid-configuration`, instance discovery, the JWKS),
 * the device code endpoint and the page where a person enters the code.
 */
export function signInRoutes(deps: SignInDeps): EndpointRoute[] {
  /** A call about a tenant: its OAuth errors answered in Entra's shape. */
  const oauth =
    (handler: (request: EndpointRequest, segment: string) => void | Promise<void>): EndpointRoute['handler'] =>
    async (request) => {
      const now = deps.clock();
      try {
        await handler(request, tenantSegment(request.params));
      } catch (error) {
        if (!(error instanceof OAuthError)) throw error;
        sendOAuthError(request.res, error, now);
      }
    };
  /** The tenant a segment names (an id, a domain, organizations or common), or Entra's error. */
  const tenantOf = (segment: string) => {
    const tenantId = resolveTenant(segment, deps.principals);
    if (!tenantId) throw unknownTenant(segment);
    return tenantId;
  };
  return [
    { method: 'GET', path: '/devicelogin', handler: ({ res }) => sendHtml(res, 200, deviceLoginPage(null, false)) },
    { method: 'POST', path: '/devicelogin', handler: ({ req, res }) => approveDeviceCode(deps, req, res) },
    {
      method: 'GET',
      path: '/:tenant/discovery/instance',
      handler: oauth(({ res, origin }, segment) => {
        const host = new URL(origin).host;
        sendJson(res, 200, {
          tenant_discovery_endpoint: `${origin}/${encodeURIComponent(segment)}/v2.0/.well-known/openid-configuration`,
          'api-version': '1.1',
          metadata: [{ preferred_network: host, preferred_cache: host, aliases: [host] }],
        });
      }),
    },
    {
      method: 'GET',
      path: '/:tenant/v2.0/.well-known/openid-configuration',
      handler: oauth(({ res, origin }, segment) => sendJson(res, 200, openIdConfiguration(origin, segment, tenantOf(segment)))),
    },
    ...['/:tenant/discovery/v2.0/keys', '/:tenant/discovery/keys'].map((path): EndpointRoute => ({
      method: 'GET',
      path,
      handler: oauth(({ res }, segment) => {
        tenantOf(segment);
        sendJson(res, 200, { keys: [deps.signing.jwk] });
      }),
    })),
    {
      method: 'POST',
      path: '/:tenant/oauth2/v2.0/devicecode',
      handler: oauth((request, segment) => startDeviceCode(deps, request, tenantOf(segment))),
    },
  ];
}

/** POST /devicelogin: the person's code, name and password; the device's sign-in goes on once they match. */
async function approveDeviceCode(deps: SignInDeps, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const form = new URLSearchParams((await readBody(req, 16 * 1024)).toString('utf8'));
  const code = deps.deviceCodes.byUserCode(form.get('otc') ?? '');
  if (!code)
    return sendHtml(res, 400, deviceLoginPage('That code is not valid or has expired. Check the code on your device and try again.', true));
  const user = findUser(deps.principals, form.get('username') ?? '');
  if (!user || !sameSignature(hmac(deps.key, form.get('password') ?? ''), hmac(deps.key, user.password))) {
    return sendHtml(res, 401, deviceLoginPage('Your account or password is incorrect.', true));
  }
  deps.deviceCodes.approve(code, user.id);
  const app = deps.principals.apps.find((a) => a.clientId === code.clientId);
  sendHtml(
    res,
    200,
    deviceLoginPage(
      `You have signed in to ${app?.displayName ?? 'the application'} on your device as ${user.userPrincipalName}. You may now close this window.`,
      false,
    ),
  );
}

/** POST /{tenant}/oauth2/v2.0/devicecode: a device code and the code the person types at /devicelogin. */
async function startDeviceCode(deps: SignInDeps, { req, res, origin }: EndpointRequest, tenantId: string): Promise<void> {
  const form = new URLSearchParams((await readBody(req, 64 * 1024)).toString('utf8'));
  const clientId = form.get('client_id');
  if (!clientId) throw missing('client_id');
  const scope = form.get('scope');
  if (!scope) throw missing('scope');
  if (!deps.principals.apps.some((a) => a.clientId === clientId))
    throw new OAuthError(
      400,
      'unauthorized_client',
      700016,
      `Application with identifier '${clientId}' was not found in the directory '${tenantId}'.`,
    );
  const code = deps.deviceCodes.start(clientId, scope);
  const verificationUri = `${origin}/devicelogin`;
  sendJson(res, 200, {
    user_code: code.userCode,
    device_code: code.deviceCode,
    verification_uri: verificationUri,
    expires_in: deps.deviceCodes.lifetimeSeconds,
    interval: 1,
    message: `To sign in, use a web browser to open the page ${verificationUri} and enter the code ${code.userCode} to authenticate.`,
  });
}
