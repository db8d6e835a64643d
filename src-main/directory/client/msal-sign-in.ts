// Types only: msal-node (about 18 MB once loaded) is imported when a real tenant is first
// connected, so a console that only relays cameras, or runs on the emulator, never loads it.
import type {
  AccountInfo,
  AuthenticationResult,
  DeviceCodeRequest,
  ICachePlugin,
  INetworkModule,
  PublicClientApplication,
} from '@azure/msal-node';
import type { Logger } from '../../platform/logger';
import type { TokenProvider } from './graph-client';
import { GraphError } from './graph-error';

/**
 * Delegated permissions the console uses, least privileged for each operation it performs:
 * policies (EntitlementManagement.ReadWrite.All), role names (RoleManagement.Read.Directory),
 * administrative units (AdministrativeUnit.Read.All), people pickers and member names
 * (User.ReadBasic.All), the signed-in person's calendar (Calendars.Read).
 */
const CONSOLE_GRAPH_SCOPES = [
  'EntitlementManagement.ReadWrite.All',
  'RoleManagement.Read.Directory',
  'AdministrativeUnit.Read.All',
  'User.ReadBasic.All',
  'Calendars.Read',
];

/** Asked for only when another person's calendar is synchronised (incremental consent). */
export const SHARED_CALENDAR_SCOPES = ['Calendars.Read.Shared'];

/** Asked for only when a role member of an administrative unit is added or removed (incremental consent). */
export const ROLE_WRITE_SCOPES = ['RoleManagement.ReadWrite.Directory'];

export interface MsalPublicClientOptions {
  clientId: string;
  /** A tenant id or domain, or `organizations` / `common`. */
  tenant: string;
  /** Default `https://login.microsoftonline.com`; another cloud's login host otherwise. */
  authorityHost?: string;
  cachePlugin?: ICachePlugin;
  logger?: Logger;
  /** msal's HTTP client; tests hand in one that answers without a network. */
  networkClient?: INetworkModule;
}

/** Entra ID's sign-in hosts in the public and national clouds. */
const MICROSOFT_LOGIN_HOSTS = new Set([
  'login.microsoftonline.com',
  'login.microsoftonline.us',
  'login.chinacloudapi.cn',
  'login.partner.microsoftonline.cn',
  'login.microsoftonline.de',
  'login.windows.net',
  'login.microsoft.com',
  'sts.windows.net',
]);

const loadMsal = () => import('@azure/msal-node');

/** The msal-node app for a real tenant: a public client (no secret on the user's machine). */
export async function createMsalPublicClient(options: MsalPublicClientOptions): Promise<PublicClientApplication> {
  const { LogLevel, PublicClientApplication } = await loadMsal();
  const host = (options.authorityHost ?? 'https://login.microsoftonline.com').replace(/\/+$/, '');
  const log = options.logger;
  // Microsoft's clouds are checked through instance discovery; any other sign-in host (a local
  // emulator, a test identity service) is trusted as configured, as msal wants it named.
  const authorityHost = new URL(host).host;
  const knownAuthorities = MICROSOFT_LOGIN_HOSTS.has(authorityHost.toLowerCase()) ? undefined : [authorityHost];
  return new PublicClientApplication({
    auth: {
      clientId: options.clientId,
      authority: `${host}/${encodeURIComponent(options.tenant)}`,
      ...(knownAuthorities ? { knownAuthorities } : {}),
    },
    cache: options.cachePlugin ? { cachePlugin: options.cachePlugin } : undefined,
    system: {
      ...(options.networkClient ? { networkClient: options.networkClient } : {}),
      loggerOptions: {
        piiLoggingEnabled: false,
        logLevel: LogLevel.Warning,
        loggerCallback: (level, message) => {
          if (!log) return;
          if (level === LogLevel.Error) log.error(message);
          else log.warn(message);
        },
      },
    },
  });
}

/** What msal hands the device code callback: userCode, verificationUri, expiresIn, message. */
export type DeviceCodeInfo = Parameters<DeviceCodeRequest['deviceCodeCallback']>[0];

export interface InteractiveTokenProviderOptions {
  app: PublicClientApplication;
  scopes?: string[];
  /**
   * Shows the sign-in page: Electron's `shell.openExternal` on the desktop, or printing the URL
   * when headless. The page redirects to a loopback port msal listens on (auth code + PKCE).
   */
  openBrowser: (url: string) => Promise<void>;
  /**
   * How a person signs in: the browser (auth code + PKCE, default), or a device code typed on
   * another device's browser, for a console with no browser at hand (headless on a server).
   */
  flow?: 'browser' | 'deviceCode';
  /** Device code flow: what to show the person (code, address, msal's sentence). */
  onDeviceCode?: (code: DeviceCodeInfo) => void;
  /** When false, getToken never opens a browser and asks for signIn() instead (default true). */
  interactive?: boolean;
  successTemplate?: string;
  errorTemplate?: string;
  /**
   * How long a call waits for the user to finish signing in (default 5 min). The sign-in page
   * stays usable after that: a later completion still lands in the cache for the next call.
   */
  signInTimeoutMs?: number;
}

export interface InteractiveTokenProvider extends TokenProvider {
  /** Opens the sign-in page and waits for the user (one at a time). */
  signIn(): Promise<AccountInfo>;
  signOut(): Promise<void>;
  /** The account in the token cache, if any. */
  account(): Promise<AccountInfo | null>;
  /** A token from the cache (renewed with the refresh token if needed), never asking the person; null when signed out. */
  silent(): Promise<AuthenticationResult | null>;
  /** Tokens that also carry these scopes: silent when already consented, else one more sign-in asking for them. */
  withScopes(extra: string[]): TokenProvider;
}

/** msal's error as the Graph client's; the module is loaded by then (an app exists), so this is a cache hit. */
async function asGraphError(error: unknown): Promise<unknown> {
  const { AuthError, InteractionRequiredAuthError } = await loadMsal();
  if (error instanceof InteractionRequiredAuthError)
    return new GraphError(401, 'interactionRequired', `sign in again: ${error.errorMessage || error.errorCode}`);
  if (error instanceof AuthError) return new GraphError(401, error.errorCode || 'authError', error.errorMessage || error.message);
  return error;
}

/** True for msal's "the person has to sign in (again)". */
async function needsInteraction(error: unknown): Promise<boolean> {
  return error instanceof (await loadMsal()).InteractionRequiredAuthError;
}

const SUCCESS_PAGE = '<!doctype html><title>Relay Console</title><p>Signed in. You can close this tab and return to Relay Console.</p>';
const ERROR_PAGE = '<!doctype html><title>Relay Console</title><p>Sign-in failed. Return to Relay Console for details.</p>';

/**
 * Tokens of a signed-in user for a real tenant. Silent first: msal answers from its cache and
 * renews with the refresh token; only when that needs the user does it open the sign-in page.
 * The cache (through the plugin given to the app) keeps the user signed in across restarts.
 */
export function createInteractiveTokenProvider(options: InteractiveTokenProviderOptions): InteractiveTokenProvider {
  const { app } = options;
  const scopes = options.scopes ?? CONSOLE_GRAPH_SCOPES;
  let signingIn: Promise<AuthenticationResult> | null = null;
  let refused: string | null = null;

  const account = async (): Promise<AccountInfo | null> => (await app.getAllAccounts())[0] ?? null;

  const interactive = (wanted: string[] = scopes): Promise<AuthenticationResult> => {
    const start = (): Promise<AuthenticationResult> =>
      options.flow === 'deviceCode'
        ? app.acquireTokenByDeviceCode({ scopes: wanted, deviceCodeCallback: (code) => options.onDeviceCode?.(code) }).then((result) => {
            if (!result) throw new GraphError(401, 'deviceCodeCancelled', 'the device code sign-in was cancelled');
            return result;
          })
        : app.acquireTokenInteractive({
            scopes: wanted,
            openBrowser: options.openBrowser,
            successTemplate: options.successTemplate ?? SUCCESS_PAGE,
            errorTemplate: options.errorTemplate ?? ERROR_PAGE,
          });
    signingIn ??= start()
      .catch(async (error: unknown) => {
        throw await asGraphError(error);
      })
      .finally(() => {
        signingIn = null;
      });
    return signingIn;
  };

  const timeoutMs = options.signInTimeoutMs ?? 5 * 60_000;
  const interactiveWithin = async (wanted: string[]): Promise<AuthenticationResult> => {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(
        () =>
          reject(
            new GraphError(
              401,
              'signInTimedOut',
              `no sign-in was completed within ${Math.round(timeoutMs / 1000)} s; finish it in the browser and try again`,
            ),
          ),
        timeoutMs,
      );
    });
    try {
      return await Promise.race([interactive(wanted), timeout]);
    } finally {
      clearTimeout(timer);
    }
  };

  /** Silent first (cache, then refresh token); a sign-in only when that needs the person. */
  const tokensFor = (wanted: string[]): TokenProvider => ({
    async getToken(signal) {
      signal?.throwIfAborted();
      const signedIn = await account();
      if (signedIn) {
        try {
          const forceRefresh = refused !== null;
          const result = await app.acquireTokenSilent({ account: signedIn, scopes: wanted, forceRefresh });
          if (result.accessToken !== refused) {
            refused = null;
            return result.accessToken;
          }
        } catch (error) {
          if (!(await needsInteraction(error))) throw await asGraphError(error);
        }
      }
      if (options.interactive === false)
        throw new GraphError(401, 'interactionRequired', 'not signed in to Microsoft Graph: sign in first');
      const result = await interactiveWithin(wanted);
      refused = null;
      return result.accessToken;
    },
    invalidate(token) {
      refused = token;
    },
  });
  const base = tokensFor(scopes);

  return {
    getToken: base.getToken,
    invalidate: base.invalidate,
    withScopes: (extra) => tokensFor([...new Set([...scopes, ...extra])]),
    async signIn() {
      const result = await interactive();
      if (!result.account) throw new GraphError(401, 'noAccount', 'the sign-in returned no account');
      return result.account;
    },
    async silent() {
      const signedIn = await account();
      if (!signedIn) return null;
      try {
        return await app.acquireTokenSilent({ account: signedIn, scopes });
      } catch (error) {
        if (await needsInteraction(error)) return null;
        throw await asGraphError(error);
      }
    },
    async signOut() {
      const signedIn = await account();
      if (signedIn) await app.getTokenCache().removeAccount(signedIn);
    },
    account,
  };
}
