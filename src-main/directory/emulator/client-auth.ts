import { OAuthError } from './oauth-error';
import type { AppPrincipal } from './principals';
import { hmac, sameSignature } from './signing';

/**
 * How the client took part in a grant: `confidential` when it proved itself with its secret,
 * `public` when it used a public-client flow (PKCE, device code, ROPC) without one. A refresh
 * token remembers it, so the grant that redeems the token asks for the same proof.
 */
export type ClientKind = 'confidential' | 'public';

/**
 * Client authentication on one token request, as Entra checks it on every grant: a secret that
 * is sent must be the app's (401 AADSTS7000215, whatever the grant), and a grant that needs a
 * confidential client without one is refused (AADSTS7000216 for client credentials, 7000218
 * for the others).
 */
export function authenticateClient(
  key: Buffer,
  app: AppPrincipal,
  grant: string,
  secret: string | null,
  secretRequired: boolean,
): ClientKind {
  if (secret === null) {
    if (!secretRequired) return 'public';
    if (grant === 'client_credentials')
      throw new OAuthError(
        401,
        'invalid_client',
        7000216,
        "'client_assertion', 'client_secret' or 'request' is required for the 'client_credentials' grant type.",
      );
    throw new OAuthError(
      401,
      'invalid_client',
      7000218,
      "The request body must contain the following parameter: 'client_assertion' or 'client_secret'.",
    );
  }
  // Compared as HMACs: equal-length values, so the comparison takes the same time for any guess.
  if (!sameSignature(hmac(key, secret), hmac(key, app.clientSecret)))
    throw new OAuthError(
      401,
      'invalid_client',
      7000215,
      `Invalid client secret provided. Ensure the secret being sent in the request is the client secret value, not the client secret ID, for a secret added to app '${app.clientId}'.`,
    );
  return 'confidential';
}
