import type { SignInStatus } from '@shared/contract/directory-accounts';

// The directory connection in words, as the Settings page shows it.

export const SIGN_IN_LABELS: Record<NonNullable<SignInStatus['connection']>['signIn'], string> = {
  password: 'User name and password (test accounts)',
  authCode: 'Browser sign-in (auth code + PKCE)',
  deviceCode: 'Device code (sign in on another device)',
  clientCredentials: 'App-only (client secret)',
};

/** "Signed in as Alex Wilber (alex@contoso.com)", "App-only access", "Signed out", … */
export function signInSummary(status: SignInStatus): string {
  switch (status.state) {
    case 'signedIn':
      if (status.appOnly || !status.user) return 'App-only access: the app acts as itself, no person is signed in';
      return `Signed in as ${status.user.displayName ?? status.user.userPrincipalName ?? 'an unnamed user'}${status.user.displayName && status.user.userPrincipalName ? ` (${status.user.userPrincipalName})` : ''}`;
    case 'signingIn':
      return status.deviceCode
        ? 'Waiting for the code to be entered'
        : status.signInUrl
          ? 'Waiting for the sign-in in the browser'
          : 'Signing in…';
    case 'signedOut':
      return 'Signed out: the directory pages and the calendar sync wait for a sign-in';
    default:
      return 'The directory cannot be reached';
  }
}

/** "in 59 minutes", "in 2 hours", "expired" for a token's expiry. */
export function expiresInText(expiresAt: string, now: number): string {
  const ms = Date.parse(expiresAt) - now;
  if (Number.isNaN(ms)) return '';
  if (ms <= 0) return 'expired';
  const minutes = Math.round(ms / 60_000);
  if (minutes < 90) return `in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}`;
  const hours = Math.round(minutes / 60);
  return `in ${hours} hours`;
}
