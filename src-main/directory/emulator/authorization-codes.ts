import { createHash, randomBytes } from 'node:crypto';

/** What an authorization code stands for: who signed in, for which app, redirect and PKCE challenge. */
export interface AuthorizationGrant {
  clientId: string;
  redirectUri: string;
  scope: string;
  userId: string;
  codeChallenge?: string;
  codeChallengeMethod?: 'S256' | 'plain';
  nonce?: string;
}

export type RedeemFailure = 'unknown' | 'expired' | 'redeemed' | 'otherClient' | 'otherRedirect' | 'verifierMissing' | 'verifierMismatch';

interface IssuedCode extends AuthorizationGrant {
  expiresAt: number;
  redeemed: boolean;
}

/**
 * Authorization codes issued by the authorize endpoint (RFC 6749 with PKCE, RFC 7636). A code
 * is good once, for ten minutes, for the app and redirect address it was issued to; a second
 * redemption is refused as Entra refuses it. Kept in memory like any sign-in under way.
 */
export class AuthorizationCodes {
  private readonly codes = new Map<string, IssuedCode>();

  constructor(
    private readonly clock: () => number,
    private readonly lifetimeMs = 10 * 60_000,
  ) {}

  issue(grant: AuthorizationGrant): string {
    this.sweep();
    const code = `ac.${randomBytes(32).toString('base64url')}`;
    this.codes.set(code, { ...grant, expiresAt: this.clock() + this.lifetimeMs, redeemed: false });
    return code;
  }

  redeem(code: string, clientId: string, redirectUri: string | null, verifier: string | null): AuthorizationGrant | RedeemFailure {
    const issued = this.codes.get(code);
    if (!issued) return 'unknown';
    if (issued.expiresAt <= this.clock()) return 'expired';
    if (issued.redeemed) return 'redeemed';
    if (issued.clientId !== clientId) return 'otherClient';
    if (redirectUri !== issued.redirectUri) return 'otherRedirect';
    if (issued.codeChallenge !== undefined) {
      if (!verifier) return 'verifierMissing';
      const expected = issued.codeChallengeMethod === 'plain' ? verifier : createHash('sha256').update(verifier).digest('base64url');
      if (expected !== issued.codeChallenge) return 'verifierMismatch';
    }
    issued.redeemed = true;
    const { expiresAt: _expiresAt, redeemed: _redeemed, ...grant } = issued;
    return grant;
  }

  private sweep(): void {
    const now = this.clock();
    for (const [code, issued] of this.codes) if (issued.expiresAt <= now) this.codes.delete(code);
  }
}
