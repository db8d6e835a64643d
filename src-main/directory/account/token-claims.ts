// What a Graph access token says about itself, read for display only (who, which permissions,
// until when). Nothing is trusted from it: Graph checks the token, the console only shows it.

export interface TokenClaims {
  /** Delegated scopes (scp) or application roles. */
  scopes: string[];
  appOnly: boolean;
  expiresAt: string | null;
  name: string | null;
  userPrincipalName: string | null;
}

/** The claims of a JWT access token; a token that is not a JWT (opaque) says nothing. */
export function tokenClaims(token: string): TokenClaims | null {
  const payload = token.split('.')[1];
  if (!payload) return null;
  let claims: Record<string, unknown>;
  try {
    claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
  } catch {
    return null;
  }
  if (typeof claims !== 'object' || claims === null) return null;
  const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : null);
  const scopes =
    typeof claims.scp === 'string'
      ? claims.scp.split(' ').filter(Boolean)
      : Array.isArray(claims.roles)
        ? claims.roles.filter((r): r is string => typeof r === 'string')
        : [];
  const appOnly = claims.idtyp === 'app' || (claims.scp === undefined && Array.isArray(claims.roles));
  return {
    scopes: [...scopes].sort(),
    appOnly,
    expiresAt: typeof claims.exp === 'number' ? new Date(claims.exp * 1000).toISOString() : null,
    name: text(claims.name),
    userPrincipalName: text(claims.upn) ?? text(claims.preferred_username) ?? text(claims.unique_name),
  };
}
