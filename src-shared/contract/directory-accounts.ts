import { z } from 'zod';
import { defineService, method } from './define-service';

// Who the directory pages and the calendar sync act as: the connection of the `directory`
// config section (the embedded emulator by default, or a tenant), the person or app signed in,
// the granted scopes and when the token expires. Tokens and secrets never reach the console.

export const SIGN_IN_KINDS = ['password', 'authCode', 'deviceCode', 'clientCredentials'] as const;
export type SignInKind = (typeof SIGN_IN_KINDS)[number];

export const directoryConnectionInfoSchema = z.object({
  /** The embedded emulator, or a tenant named in `directory.graph`. */
  mode: z.enum(['emulator', 'graph']),
  tenant: z.string(),
  clientId: z.string(),
  /** password: the emulator's demo user (or a configured test user); authCode: the system browser; deviceCode: a code typed on another device; clientCredentials: app-only. */
  signIn: z.enum(SIGN_IN_KINDS),
  graphBaseUrl: z.string(),
});
export type DirectoryConnectionInfo = z.infer<typeof directoryConnectionInfoSchema>;

export const signInStatusSchema = z.object({
  /** Null when the directory is off or its config is wrong (see error). */
  connection: directoryConnectionInfoSchema.nullable(),
  state: z.enum(['signedOut', 'signingIn', 'signedIn', 'error']),
  /** The signed-in person; null for app-only access or when signed out. */
  user: z.object({ displayName: z.string().nullable(), userPrincipalName: z.string().nullable() }).nullable(),
  appOnly: z.boolean(),
  /** Delegated scopes (scp) or application roles of the current token. */
  scopes: z.array(z.string()),
  expiresAt: z.string().nullable(),
  /** Device code sign-in under way: the code to type and where. */
  deviceCode: z.object({ userCode: z.string(), verificationUri: z.string(), message: z.string(), expiresAt: z.string() }).nullable(),
  /** Browser sign-in under way: the page to open, for when the console cannot open it itself. */
  signInUrl: z.string().nullable(),
  error: z.string().nullable(),
});
export type SignInStatus = z.infer<typeof signInStatusSchema>;

export const directoryAccountService = defineService({
  name: 'directoryAccount',
  methods: {
    /** Read without asking anyone to sign in. */
    status: method(z.void(), signInStatusSchema),
    /** Starts a sign-in; its progress (a device code, a sign-in page, the result) comes as onStatus. */
    signIn: method(z.void(), signInStatusSchema),
    /** Forgets the tokens (the sealed sign-in cache too); the directory pages answer "signed out" until the next sign-in. */
    signOut: method(z.void(), signInStatusSchema),
  },
  events: {
    onStatus: signInStatusSchema,
  },
});
