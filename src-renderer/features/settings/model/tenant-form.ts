import { DEFAULT_AUTHORITY_HOST, DEFAULT_GRAPH_BASE_URL, type NewTenant, type TenantSignInKind } from '@shared/contract/directory-accounts';
import { ContractFailure } from '@shared/contract/result';

// The "add a tenant" form's words and starting values: what each sign-in kind needs from the
// app registration in Entra, so the person knows what to set up before the first sign-in.

export const EMPTY_TENANT: NewTenant = {
  name: '',
  tenant: '',
  clientId: '',
  signIn: 'authCode',
  clientSecret: '',
  authorityHost: DEFAULT_AUTHORITY_HOST,
  graphBaseUrl: DEFAULT_GRAPH_BASE_URL,
  caFile: '',
};

export const TENANT_SIGN_IN_CHOICES: { value: TenantSignInKind; label: string; description: string }[] = [
  {
    value: 'authCode',
    label: 'Browser sign-in',
    description: 'Sign in with the system browser (authorization code with PKCE). For the desktop app.',
  },
  {
    value: 'deviceCode',
    label: 'Device code',
    description: 'Type a code in any device’s browser. For a console on a server with no browser.',
  },
  {
    value: 'clientCredentials',
    label: 'App-only (client secret)',
    description: 'The app acts as itself with a client secret; no one signs in. The calendar needs a user id instead of “me”.',
  },
];

/** What the app registration must allow for a sign-in kind (Entra admin center → App registrations). */
export function registrationNeeds(kind: TenantSignInKind): string[] {
  // RoleManagement.ReadWrite.Directory is asked for only when a unit's role members are changed.
  const delegated =
    'API permissions (delegated): EntitlementManagement.ReadWrite.All, RoleManagement.Read.Directory, Calendars.Read, and RoleManagement.ReadWrite.Directory to change role members of administrative units';
  switch (kind) {
    case 'authCode':
      return ['Authentication → Mobile and desktop applications: redirect URI http://localhost', delegated];
    case 'deviceCode':
      return ['Authentication → Allow public client flows: Yes', delegated];
    case 'clientCredentials':
      return [
        'Certificates & secrets → a client secret (paste its value, not its id)',
        'API permissions (application, with admin consent): EntitlementManagement.ReadWrite.All, RoleManagement.Read.Directory, Calendars.Read, and RoleManagement.ReadWrite.Directory to change role members of administrative units',
      ];
  }
}

/**
 * What is sent: a secret only with client credentials (a secret typed before switching to
 * another kind is not kept), and the tenant trimmed as the schema reads it.
 */
export function tenantToSend(values: NewTenant): NewTenant {
  return { ...values, clientSecret: values.signIn === 'clientCredentials' ? values.clientSecret : '' };
}

const FIELDS: ReadonlySet<string> = new Set(Object.keys(EMPTY_TENANT));

/**
 * Main's refusals that belong to one field (a CA file it cannot read or that holds no
 * certificate: only main can open the file), so the form shows them there and not as a banner.
 */
export function tenantFieldErrors(error: unknown): { field: keyof NewTenant; message: string }[] {
  if (!(error instanceof ContractFailure)) return [];
  const problems = (error.details as { problems?: unknown } | undefined)?.problems;
  if (!Array.isArray(problems)) return [];
  return problems.flatMap((problem: { path?: unknown; message?: unknown }) =>
    typeof problem?.path === 'string' && FIELDS.has(problem.path) && typeof problem.message === 'string'
      ? [{ field: problem.path as keyof NewTenant, message: problem.message }]
      : [],
  );
}
