import { z } from 'zod';
import { defineService, method } from './define-service';

// Who the directory pages and the calendar sync act as: the connection of the `directory`
// config section (the embedded emulator by default, or a tenant), the person or app signed in,
// the granted scopes and when the token expires. Tokens and secrets never reach the console.

const SIGN_IN_KINDS = ['password', 'authCode', 'deviceCode', 'clientCredentials'] as const;

const directoryConnectionInfoSchema = z.object({
  /** The embedded emulator, or a tenant named in `directory.graph`. */
  mode: z.enum(['emulator', 'graph']),
  tenant: z.string(),
  clientId: z.string(),
  /** password: the emulator's demo user (or a configured test user); authCode: the system browser; deviceCode: a code typed on another device; clientCredentials: app-only. */
  signIn: z.enum(SIGN_IN_KINDS),
  graphBaseUrl: z.string(),
});
export type DirectoryConnectionInfo = z.infer<typeof directoryConnectionInfoSchema>;

const signInStatusSchema = z.object({
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

/** How a tenant added in Settings signs in: the three kinds Entra offers a desktop app. */
export const TENANT_SIGN_IN_KINDS = ['authCode', 'deviceCode', 'clientCredentials'] as const;
export type TenantSignInKind = (typeof TENANT_SIGN_IN_KINDS)[number];

export const DEFAULT_AUTHORITY_HOST = 'https://login.microsoftonline.com';
export const DEFAULT_GRAPH_BASE_URL = 'https://graph.microsoft.com/v1.0';

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DOMAIN = /^(?=.{4,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i;
/** Sign-in endpoints that take any work account: fine for a person, meaningless for an app. */
const MULTI_TENANT = ['organizations', 'common'];

/** A path main can open wherever it runs: /… on Linux and macOS, C:\… or \\server\… on Windows. */
const ABSOLUTE_PATH = /^(\/|[A-Za-z]:[\\/]|\\\\)/;

const isLoopback = (host: string) => host === 'localhost' || host === '[::1]' || /^127\./.test(host);

/** https, or http to this machine only (a local emulator): secrets never cross a network in the clear. */
const serviceUrl = (example: string) =>
  z
    .string()
    .trim()
    .min(1, `required, e.g. ${example}`)
    .refine((value) => {
      try {
        const url = new URL(value);
        return url.protocol === 'https:' || (url.protocol === 'http:' && isLoopback(url.hostname));
      } catch {
        return false;
      }
    }, `expected an https address, e.g. ${example} (plain http only to this computer)`);

/**
 * A tenant as typed in Settings. The form, main (before anything is stored) and the tests all
 * check it with this schema.
 */
export const newTenantSchema = z
  .object({
    /** Shown in the connection list; the tenant when empty. */
    name: z.string().trim().max(80, 'at most 80 characters'),
    tenant: z
      .string()
      .trim()
      .min(1, 'required: the directory (tenant) id or a domain of the tenant')
      .refine(
        (value) => GUID.test(value) || DOMAIN.test(value) || MULTI_TENANT.includes(value),
        'expected a tenant id (a GUID) or a domain such as contoso.onmicrosoft.com',
      ),
    clientId: z
      .string()
      .trim()
      .regex(GUID, 'expected the application (client) id of the app registration: a GUID such as 11111111-2222-3333-4444-555555555555'),
    signIn: z.enum(TENANT_SIGN_IN_KINDS),
    /** Client credentials only; sealed in main and never sent back. */
    clientSecret: z.string(),
    authorityHost: serviceUrl(DEFAULT_AUTHORITY_HOST),
    graphBaseUrl: serviceUrl(DEFAULT_GRAPH_BASE_URL),
    /**
     * A PEM file of CAs trusted for this tenant's sign-in and Graph besides the public roots, for
     * a network whose proxy inspects TLS; empty or absent for none. Main reads it before keeping
     * the tenant (a file it cannot read, or that holds no certificate, is refused at this field).
     */
    caFile: z
      .string()
      .trim()
      .max(4096, 'at most 4096 characters')
      .refine(
        (value) => value === '' || ABSOLUTE_PATH.test(value),
        'expected the full path of a PEM file on this computer, e.g. /etc/ssl/certs/corporate-ca.pem',
      )
      .optional(),
  })
  .superRefine((tenant, ctx) => {
    if (tenant.signIn !== 'clientCredentials') return;
    if (tenant.clientSecret.length === 0)
      ctx.addIssue({
        code: 'custom',
        path: ['clientSecret'],
        message: 'required for client credentials: a secret of the app registration (Certificates & secrets)',
      });
    if (MULTI_TENANT.includes(tenant.tenant))
      ctx.addIssue({
        code: 'custom',
        path: ['tenant'],
        message: `app-only access needs one tenant: its id or domain, not "${tenant.tenant}"`,
      });
  });
export type NewTenant = z.infer<typeof newTenantSchema>;

/** The connection from the config file (the emulator unless `directory.graph` names a tenant). */
export const CONFIG_CONNECTION_ID = 'config';

const directoryConnectionEntrySchema = z.object({
  /** CONFIG_CONNECTION_ID, or the id of a tenant added in Settings. */
  id: z.string(),
  name: z.string(),
  source: z.enum(['config', 'added']),
  /** The one the directory pages and the calendar sync use. */
  active: z.boolean(),
  /** Null when the config's connection cannot be read (see problem). */
  info: directoryConnectionInfoSchema.nullable(),
  problem: z.string().nullable(),
});
export type DirectoryConnectionEntry = z.infer<typeof directoryConnectionEntrySchema>;

export const directoryAccountService = defineService({
  name: 'directoryAccount',
  methods: {
    /** Read without asking anyone to sign in. */
    status: method(z.void(), signInStatusSchema),
    /** Starts a sign-in; its progress (a device code, a sign-in page, the result) comes as onStatus. */
    signIn: method(z.void(), signInStatusSchema),
    /** Forgets the tokens (the sealed sign-in cache too); the directory pages answer "signed out" until the next sign-in. */
    signOut: method(z.void(), signInStatusSchema),
    /** The config's connection and the tenants added here, the active one marked. */
    connections: method(z.void(), z.array(directoryConnectionEntrySchema)),
    /**
     * Keeps a tenant (its client secret sealed) and makes it the active connection. A client
     * secret is tried first: a tenant whose token endpoint refuses it is not kept.
     */
    addTenant: method(newTenantSchema, directoryConnectionEntrySchema),
    /** Forgets a tenant, its secret, its sign-in cache and its calendar copy; the config's connection takes over if it was active. */
    removeTenant: method(z.object({ id: z.string().min(1) }), z.void()),
    /** Switches the directory pages and the calendar sync to another connection. */
    useConnection: method(z.object({ id: z.string().min(1) }), signInStatusSchema),
  },
  events: {
    onStatus: signInStatusSchema,
  },
});
