import { randomBytes, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AuthorizationCodes } from './authorization-codes';
import { readBody } from './graph-http';
import { findUser, type AppPrincipal, type Principals, type UserPrincipal } from './principals';
import { redirectAllowed } from './redirect-uris';
import { escapeHtml, notice, sendHtml, signInDocument } from './sign-in-page';
import { hmac, sameSignature } from './signing';
import { resolveTenant } from './tenant-names';
import { OAuthError } from './oauth-error';
import { tenantSegment, type EndpointRequest, type EndpointRoute } from './graph-route';
import { grantedScopes } from './token-endpoint';

export interface AuthorizeDeps {
  principals: Principals;
  codes: AuthorizationCodes;
  /** Signs the sign-in form and the session cookie; compares passwords through HMAC. */
  key: Buffer;
  clock: () => number;
}

const SESSION_COOKIE = 'graph_emulator_session';
const SESSION_MS = 8 * 3_600_000;
/** How long a sign-in page may stay open before its form is refused. */
const FORM_MS = 30 * 60_000;
const RESPONSE_MODES = new Set(['query', 'fragment', 'form_post']);
const OPENID = new Set(['openid', 'profile', 'email', 'offline_access']);

/** A request the emulator cannot send back to the app (unknown app or redirect address): shown on the page, as Entra does. */
class PageError extends Error {
  constructor(
    readonly aadsts: number,
    message: string,
  ) {
    super(message);
  }
}

type ReturnAddress = Pick<Authorization, 'redirectUri' | 'responseMode' | 'state'>;

/** A refused request whose redirect address is trusted: the app hears of it there. */
class ReturnedError extends Error {
  constructor(
    readonly to: ReturnAddress,
    readonly error: OAuthError,
  ) {
    super(error.message);
  }
}

interface Authorization {
  app: AppPrincipal;
  redirectUri: string;
  responseMode: string;
  state: string | null;
  scope: string;
  clientInfo: boolean;
  nonce: string | null;
  codeChallenge: string | null;
  codeChallengeMethod: 'S256' | 'plain';
  prompt: string | null;
  loginHint: string | null;
}

/** Reads and checks the authorize request; errors before the redirect address is trusted are PageErrors, after it OAuthErrors. */
function readAuthorization(principals: Principals, segment: string, query: URLSearchParams): Authorization {
  if (!resolveTenant(segment, principals))
    throw new PageError(
      90002,
      `Tenant '${segment}' not found. Check to make sure you have the correct tenant ID and are signing into the correct cloud.`,
    );
  const clientId = query.get('client_id');
  if (!clientId) throw new PageError(900144, "The request body must contain the following parameter: 'client_id'.");
  const app = principals.apps.find((a) => a.clientId === clientId);
  if (!app) throw new PageError(700016, `Application with identifier '${clientId}' was not found in the directory '${principals.tenant}'.`);
  const redirectUri = query.get('redirect_uri');
  if (!redirectUri) throw new PageError(900144, "The request body must contain the following parameter: 'redirect_uri'.");
  if (!redirectAllowed(app, redirectUri))
    throw new PageError(
      50011,
      `The redirect URI '${redirectUri}' specified in the request does not match the redirect URIs configured for the application '${clientId}'. Make sure the redirect URI sent in the request matches one added to your application.`,
    );
  const responseMode = query.get('response_mode') ?? 'query';
  const base = { app, redirectUri, responseMode: RESPONSE_MODES.has(responseMode) ? responseMode : 'query', state: query.get('state') };
  const fail = (error: string, aadsts: number, message: string) => new ReturnedError(base, new OAuthError(400, error, aadsts, message));
  if (!RESPONSE_MODES.has(responseMode))
    throw fail('invalid_request', 900144, `The response_mode '${responseMode}' is not valid: use query, fragment or form_post.`);
  const responseType = query.get('response_type');
  if (!responseType) throw fail('invalid_request', 900144, "The request body must contain the following parameter: 'response_type'.");
  if (responseType.split(' ').sort().join(' ') !== 'code')
    throw fail(
      'unsupported_response_type',
      700054,
      `response_type '${responseType}' is not enabled for the application: the emulator issues authorization codes (response_type=code).`,
    );
  const scope = query.get('scope');
  if (!scope) throw fail('invalid_request', 900144, "The request body must contain the following parameter: 'scope'.");
  try {
    grantedScopes(app, scope);
  } catch (error) {
    if (error instanceof OAuthError) throw fail('consent_required', error.aadsts, error.message);
    throw error;
  }
  const codeChallenge = query.get('code_challenge');
  const method = query.get('code_challenge_method') ?? (codeChallenge ? 'plain' : 'S256');
  if (method !== 'S256' && method !== 'plain')
    throw fail('invalid_request', 501471, `The code_challenge_method '${method}' is not supported: use S256 or plain.`);
  if (codeChallenge !== null && !/^[A-Za-z0-9._~-]{43,128}$/.test(codeChallenge))
    throw fail('invalid_request', 501491, 'Invalid size of Code_Challenge parameter.');
  return {
    ...base,
    scope,
    clientInfo: query.get('client_info') === '1',
    nonce: query.get('nonce'),
    codeChallenge,
    codeChallengeMethod: method,
    prompt: query.get('prompt'),
    loginHint: query.get('login_hint'),
  };
}

function sessionCookie(deps: AuthorizeDeps, userId: string, secure: boolean): string {
  const exp = deps.clock() + SESSION_MS;
  const value = `${userId}.${exp}.${hmac(deps.key, `session:${userId}.${exp}`)}`;
  return `${SESSION_COOKIE}=${value}; Path=/; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}; Max-Age=${SESSION_MS / 1000}`;
}

/** The person signed in to the emulator in this browser, if the session cookie is good. */
function sessionUser(deps: AuthorizeDeps, req: IncomingMessage): UserPrincipal | undefined {
  const cookie = (req.headers.cookie ?? '').split(/;\s*/).find((c) => c.startsWith(`${SESSION_COOKIE}=`));
  const [userId, exp, signature] = (cookie?.slice(SESSION_COOKIE.length + 1) ?? '').split('.');
  if (!userId || !exp || !signature || Number(exp) <= deps.clock() || !sameSignature(signature, hmac(deps.key, `session:${userId}.${exp}`)))
    return undefined;
  return findUser(deps.principals, userId);
}

/** The signed value the sign-in form carries: the form is good for this request only, for half an hour. */
function formToken(deps: AuthorizeDeps, rawQuery: string, exp = deps.clock() + FORM_MS): string {
  return `${exp}.${hmac(deps.key, `authorize:${exp}:${rawQuery}`)}`;
}

function formTokenValid(deps: AuthorizeDeps, rawQuery: string, token: string): boolean {
  const [exp, signature] = token.split('.');
  return !!exp && !!signature && Number(exp) > deps.clock() && sameSignature(token, formToken(deps, rawQuery, Number(exp)));
}

/** The Graph permissions asked for, for the person to see before signing in. */
function askedPermissions(scope: string): string[] {
  return scope
    .split(/\s+/)
    .filter((s) => s !== '' && !OPENID.has(s))
    .map((s) => s.replace(/^https:\/\/graph\.microsoft\.com\//, '').replace(/^00000003-0000-0000-c000-000000000000\//, ''))
    .map((s) => (s === '.default' ? 'every permission granted to the app' : s));
}

function signInPage(authorization: Authorization, token: string, userName: string, message: string | null): string {
  const permissions = askedPermissions(authorization.scope);
  return signInDocument(
    'Sign in',
    `<h1>Sign in</h1><p>to continue to <strong>${escapeHtml(authorization.app.displayName)}</strong></p>
${notice(message, true)}
<form method="post"><input type="hidden" name="flow" value="${escapeHtml(token)}">
<label for="username">User name</label><input id="username" name="username" autocomplete="username" value="${escapeHtml(userName)}" required>
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required>
${permissions.length > 0 ? `<p>Signing in lets the app use these permissions for you:</p><ul>${permissions.map((p) => `<li>${escapeHtml(p)}</li>`).join('')}</ul>` : ''}
<button type="submit">Sign in</button> <button type="submit" name="cancel" value="1" formnovalidate>Cancel</button></form>`,
  );
}

/** Sends the browser back to the app with these parameters, in the response mode it asked for. */
function sendBack(
  res: ServerResponse,
  authorization: ReturnAddress,
  params: Record<string, string>,
  headers: Record<string, string> = {},
): void {
  const values = { ...params, ...(authorization.state !== null ? { state: authorization.state } : {}) };
  if (authorization.responseMode === 'form_post') {
    const nonce = randomBytes(16).toString('base64');
    const fields = Object.entries(values)
      .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
      .join('');
    const html = signInDocument(
      'Signing in',
      `<form method="post" action="${escapeHtml(authorization.redirectUri)}">${fields}<noscript><p>Continue to the application.</p><button type="submit">Continue</button></noscript></form>`,
      {
        nonce,
        code: 'document.forms[0].submit()',
      },
    );
    sendHtml(res, 200, html, { scriptNonce: nonce, formAction: new URL(authorization.redirectUri).origin, headers });
    return;
  }
  const target = new URL(authorization.redirectUri);
  const encoded = new URLSearchParams(values).toString();
  const location =
    authorization.responseMode === 'fragment'
      ? `${authorization.redirectUri}#${encoded}`
      : `${authorization.redirectUri}${target.search ? '&' : '?'}${encoded}`;
  res.writeHead(302, { Location: location, 'Cache-Control': 'no-store', 'Content-Length': 0, ...headers });
  res.end();
}

function sendCode(
  deps: AuthorizeDeps,
  res: ServerResponse,
  authorization: Authorization,
  user: UserPrincipal,
  headers: Record<string, string> = {},
): void {
  const code = deps.codes.issue({
    clientId: authorization.app.clientId,
    redirectUri: authorization.redirectUri,
    scope: authorization.scope,
    userId: user.id,
    ...(authorization.codeChallenge !== null
      ? { codeChallenge: authorization.codeChallenge, codeChallengeMethod: authorization.codeChallengeMethod }
      : {}),
    ...(authorization.nonce !== null ? { nonce: authorization.nonce } : {}),
  });
  const clientInfo: Record<string, string> = authorization.clientInfo
    ? { client_info: Buffer.from(JSON.stringify({ uid: user.id, utid: deps.principals.tenant })).toString('base64url') }
    : {};
  sendBack(res, authorization, { code, ...clientInfo, session_state: randomUUID() }, headers);
}

const oauthParams = (error: OAuthError) => ({
  error: error.error,
  error_description: `AADSTS${error.aadsts}: ${error.message}`,
  error_codes: String(error.aadsts),
});

/**
 * The authorize endpoint (`/{tenant}/oauth2/v2.0/authorize`): authorization code with PKCE, the
 * way a desktop or web app signs a person in through the browser. GET shows the sign-in page
 * (the app's name and the permissions asked for); its form posts back with the person's name and
 * password, and the browser returns to the app's redirect address with a code the token
 * endpoint redeems once. `prompt=none` answers from this browser's emulator session or with
 * `login_required`.
 */
export function authorizeRoutes(deps: AuthorizeDeps): EndpointRoute[] {
  return [{ method: ['GET', 'POST'], path: '/:tenant/oauth2/v2.0/authorize', handler: (request) => authorize(deps, request) }];
}

async function authorize(deps: AuthorizeDeps, { req, res, params, origin }: EndpointRequest): Promise<void> {
  const method = req.method ?? 'GET';
  const segment = tenantSegment(params);
  const url = req.url ?? '';
  const rawQuery = url.includes('?') ? url.slice(url.indexOf('?') + 1) : '';
  let authorization: Authorization;
  try {
    authorization = readAuthorization(deps.principals, segment, new URLSearchParams(rawQuery));
  } catch (error) {
    if (error instanceof PageError) {
      sendHtml(
        res,
        400,
        signInDocument(
          'Sign-in error',
          `<h1>Sorry, but we're having trouble signing you in.</h1>${notice(`AADSTS${error.aadsts}: ${error.message}`, true)}`,
        ),
      );
      return;
    }
    if (error instanceof ReturnedError) {
      sendBack(res, error.to, oauthParams(error.error));
      return;
    }
    throw error;
  }
  const secure = origin.startsWith('https:');
  const formAction = `'self' ${new URL(authorization.redirectUri).origin}`;

  if (method === 'GET') {
    const signedIn = sessionUser(deps, req);
    if (authorization.prompt === 'none') {
      if (signedIn) sendCode(deps, res, authorization, signedIn);
      else
        sendBack(
          res,
          authorization,
          oauthParams(new OAuthError(400, 'login_required', 50058, 'A silent sign-in request was sent but no user is signed in.')),
        );
      return;
    }
    sendHtml(
      res,
      200,
      signInPage(authorization, formToken(deps, rawQuery), authorization.loginHint ?? signedIn?.userPrincipalName ?? '', null),
      { formAction },
    );
    return;
  }

  const form = new URLSearchParams((await readBody(req, 16 * 1024)).toString('utf8'));
  if (!formTokenValid(deps, rawQuery, form.get('flow') ?? '')) {
    sendHtml(
      res,
      400,
      signInDocument(
        'Sign-in error',
        `<h1>This sign-in page has expired.</h1>${notice('Go back to the application and sign in again.', true)}`,
      ),
    );
    return;
  }
  if (form.get('cancel') === '1') {
    sendBack(res, authorization, oauthParams(new OAuthError(400, 'access_denied', 65004, 'User declined to consent to access the app.')));
    return;
  }
  const userName = form.get('username') ?? '';
  const user = findUser(deps.principals, userName);
  const password = form.get('password') ?? '';
  if (
    !user ||
    user.userPrincipalName.toLowerCase() !== userName.toLowerCase() ||
    !sameSignature(hmac(deps.key, password), hmac(deps.key, user.password))
  ) {
    sendHtml(res, 200, signInPage(authorization, formToken(deps, rawQuery), userName, 'Your account or password is incorrect.'), {
      formAction,
    });
    return;
  }
  sendCode(deps, res, authorization, user, { 'Set-Cookie': sessionCookie(deps, user.id, secure) });
}
