import type { directoryAccountService, SignInStatus } from '@shared/contract/directory-accounts';
import type { ServiceImpl } from '@shared/contract/define-service';
import { ContractFailure } from '@shared/contract/result';
import type { DeviceCodeInfo } from '../client/msal-sign-in';
import type { DirectoryConnection } from '../directory-connection';
import { tokenClaims } from './token-claims';

export interface DirectoryAccountDeps {
  /** The directory's connection, opened on first use (the module's lazy one, without the sign-out guard). */
  open(): Promise<DirectoryConnection>;
  /** Drops the open connection, so its providers and their tokens in memory go with it. */
  reset(): void;
  emit(status: SignInStatus): void;
  now?: () => number;
}

export interface DirectoryAccount {
  service: Pick<ServiceImpl<typeof directoryAccountService>, 'status' | 'signIn' | 'signOut'>;
  /** Another connection is in use: a sign-out or failure of the previous one no longer applies. Answers the new status. */
  switched(): Promise<SignInStatus>;
  /** Throws "signed out" while the person has signed out: the directory pages wait for a sign-in. */
  guard(): void;
  /** For the connection: a browser sign-in page opened (or to be opened by hand when headless). */
  onSignInPage(url: string): void;
  onDeviceCode(code: DeviceCodeInfo): void;
}

const blank = (): Omit<SignInStatus, 'connection' | 'state'> => ({
  user: null,
  appOnly: false,
  scopes: [],
  expiresAt: null,
  deviceCode: null,
  signInUrl: null,
  error: null,
});
const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Who the directory acts as, read from the connection without asking anyone to sign in, and
 * sign-in and sign-out on request. A sign-out holds every directory call until the next
 * sign-in, whatever kind of sign-in the connection uses.
 */
export function createDirectoryAccount(deps: DirectoryAccountDeps): DirectoryAccount {
  const now = deps.now ?? Date.now;
  let signedOut = false;
  let signing: Promise<void> | null = null;
  let deviceCode: SignInStatus['deviceCode'] = null;
  let signInUrl: string | null = null;
  let lastError: string | null = null;

  const read = async (): Promise<SignInStatus> => {
    let connection: DirectoryConnection;
    try {
      connection = await deps.open();
    } catch (error) {
      return { connection: null, state: 'error', ...blank(), error: message(error) };
    }
    const base = { connection: connection.info, ...blank(), deviceCode, signInUrl };
    if (signing) return { ...base, state: 'signingIn' };
    if (signedOut) return { ...base, state: 'signedOut', error: lastError };
    try {
      if (connection.signIn) {
        const result = await connection.signIn.silent();
        if (!result) return { ...base, state: 'signedOut', error: lastError };
        return {
          ...base,
          state: 'signedIn',
          user: { displayName: result.account?.name ?? null, userPrincipalName: result.account?.username ?? null },
          scopes: [...result.scopes].filter((s) => !['openid', 'profile', 'offline_access'].includes(s)).sort(),
          expiresAt: result.expiresOn ? result.expiresOn.toISOString() : null,
        };
      }
      const claims = tokenClaims(await connection.tokens.getToken());
      if (claims?.appOnly) return { ...base, state: 'signedIn', appOnly: true, scopes: claims.scopes, expiresAt: claims.expiresAt };
      // A delegated token without names in it (the emulator's): Graph says who it is.
      const me = (
        await connection.client.request<{ displayName?: string; userPrincipalName?: string }>({
          path: '/me',
          query: { $select: 'displayName,userPrincipalName' },
        })
      ).body;
      return {
        ...base,
        state: 'signedIn',
        user: {
          displayName: me.displayName ?? claims?.name ?? null,
          userPrincipalName: me.userPrincipalName ?? claims?.userPrincipalName ?? null,
        },
        scopes: claims?.scopes ?? [],
        expiresAt: claims?.expiresAt ?? null,
      };
    } catch (error) {
      return { ...base, state: 'error', error: message(error) };
    }
  };

  const publish = async (): Promise<SignInStatus> => {
    const status = await read();
    deps.emit(status);
    return status;
  };

  const signIn = async (): Promise<void> => {
    signedOut = false;
    lastError = null;
    const connection = await deps.open();
    // A person signs in (browser or device code); anything else gets its token on first use.
    if (connection.signIn) await connection.signIn.signIn();
    else await connection.tokens.getToken();
  };

  return {
    guard() {
      if (signedOut) throw new ContractFailure('unauthenticated', 'signed out of the directory: sign in again in Settings');
    },
    onSignInPage(url) {
      signInUrl = url;
      void publish();
    },
    switched() {
      signedOut = false;
      lastError = null;
      deviceCode = null;
      signInUrl = null;
      return publish();
    },
    onDeviceCode(code) {
      deviceCode = {
        userCode: code.userCode,
        verificationUri: code.verificationUri,
        message: code.message,
        expiresAt: new Date(now() + code.expiresIn * 1000).toISOString(),
      };
      void publish();
    },
    service: {
      status: () => read(),
      signIn: async () => {
        if (!signing) {
          signing = signIn()
            .catch((error: unknown) => {
              lastError = message(error);
              signedOut = true;
            })
            .finally(() => {
              signing = null;
              deviceCode = null;
              signInUrl = null;
              void publish();
            });
        }
        return publish();
      },
      signOut: async () => {
        try {
          const connection = await deps.open();
          // The sealed cache forgets the person; other kinds lose their tokens with the connection.
          await connection.signIn?.signOut();
        } catch {
          // Nothing open, nothing to forget.
        }
        signedOut = true;
        lastError = null;
        deps.reset();
        return publish();
      },
    },
  };
}
