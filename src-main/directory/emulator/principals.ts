import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../../platform/atomic-write';
import { DEFAULT_REDIRECT_URIS } from './redirect-uris';
import { DEMO_USER_ROLES, type TenantRole } from './tenant-roles';

/** Every Graph permission the emulator checks; an app without a list gets all of them. */
export const ALL_PERMISSIONS = [
  'Calendars.Read',
  'Calendars.ReadWrite',
  'Calendars.Read.Shared',
  'Calendars.ReadWrite.Shared',
  'EntitlementManagement.Read.All',
  'EntitlementManagement.ReadWrite.All',
  'AdministrativeUnit.Read.All',
  'AdministrativeUnit.ReadWrite.All',
  'RoleManagement.Read.Directory',
  'RoleManagement.ReadWrite.Directory',
  'Directory.Read.All',
  'User.Read',
  'User.ReadBasic.All',
  'User.Read.All',
] as const;

export interface AppInput {
  client_id: string;
  client_secret: string;
  display_name?: string | undefined;
  /** Graph permission names; application tokens carry them as roles, user tokens as scp. */
  permissions?: string[] | undefined;
  /** Where the authorize endpoint may send a signed-in person back; loopback addresses when absent. */
  redirect_uris?: string[] | undefined;
}

export interface UserInput {
  id?: string | undefined;
  userPrincipalName: string;
  displayName?: string | undefined;
  password: string;
  /** Tenant-wide directory roles the user holds (`TENANT_ROLES`); none when absent. */
  roles?: TenantRole[] | undefined;
}

export interface AppPrincipal {
  clientId: string;
  clientSecret: string;
  displayName: string;
  permissions: string[];
  /** The object id an application token names in `oid`. */
  servicePrincipalId: string;
  /** Registered redirect addresses of the authorize endpoint (an http loopback one matches any port). */
  redirectUris: string[];
}

export interface UserPrincipal {
  id: string;
  userPrincipalName: string;
  displayName: string;
  password: string;
  /** Tenant-wide directory roles: what a delegated call may do besides its permissions. */
  roles: TenantRole[];
}

export interface Principals {
  tenant: string;
  /** Domain names of the tenant (lower case), which sign-in URLs may use instead of its id. */
  domains: string[];
  apps: AppPrincipal[];
  users: UserPrincipal[];
  /** Where generated demo credentials were written, when any were. */
  demoFile?: string;
}

const DEMO_DOMAIN = 'relayconsole.onmicrosoft.com';

/** A stable GUID from a text (so a configured app keeps its service principal id across restarts). */
export function guidFrom(text: string): string {
  const s = createHash('sha256').update(text).digest('hex');
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-4${s.slice(13, 16)}-a${s.slice(17, 20)}-${s.slice(20, 32)}`;
}

interface DemoFile {
  tenant: string;
  client_id: string;
  client_secret: string;
  user: { id: string; userPrincipalName: string; password: string };
}

/**
 * Apps and users from the config. When either list is missing, a demo app (all permissions)
 * and a demo user are made on first run and kept in `<root>/demo-account.json` (0600), so the
 * credentials stay the same across restarts; secrets are never logged.
 */
export async function loadPrincipals(
  root: string,
  tenant: string | undefined,
  apps: AppInput[] | undefined,
  users: UserInput[] | undefined,
  domains?: string[],
): Promise<Principals> {
  const needDemo = !apps || apps.length === 0 || !users || users.length === 0;
  let demo: DemoFile | undefined;
  const demoFile = join(root, 'demo-account.json');
  if (needDemo) {
    try {
      demo = JSON.parse(await readFile(demoFile, 'utf8')) as DemoFile;
    } catch {
      demo = {
        tenant: randomUUID(),
        client_id: randomUUID(),
        client_secret: randomBytes(30).toString('base64url'),
        user: { id: randomUUID(), userPrincipalName: `demo.user@${DEMO_DOMAIN}`, password: randomBytes(12).toString('base64url') },
      };
      await writeFileAtomic(demoFile, JSON.stringify(demo, null, 2) + '\n');
    }
  }
  const appList: AppPrincipal[] =
    apps && apps.length > 0
      ? apps.map((a) => ({
          clientId: a.client_id,
          clientSecret: a.client_secret,
          displayName: a.display_name ?? a.client_id,
          permissions: a.permissions ?? [...ALL_PERMISSIONS],
          servicePrincipalId: guidFrom(`sp:${a.client_id}`),
          redirectUris: a.redirect_uris ?? DEFAULT_REDIRECT_URIS,
        }))
      : [
          {
            clientId: demo!.client_id,
            clientSecret: demo!.client_secret,
            displayName: 'Relay Console (emulator demo)',
            permissions: [...ALL_PERMISSIONS],
            servicePrincipalId: guidFrom(`sp:${demo!.client_id}`),
            redirectUris: DEFAULT_REDIRECT_URIS,
          },
        ];
  const userList: UserPrincipal[] =
    users && users.length > 0
      ? users.map((u) => ({
          id: u.id ?? guidFrom(`user:${u.userPrincipalName.toLowerCase()}`),
          userPrincipalName: u.userPrincipalName,
          displayName: u.displayName ?? u.userPrincipalName.split('@')[0]!,
          password: u.password,
          roles: u.roles ?? [],
        }))
      : // The demo user manages the demo tenant's access packages, as the console's own flows do.
        [
          {
            id: demo!.user.id,
            userPrincipalName: demo!.user.userPrincipalName,
            displayName: 'Demo User',
            password: demo!.user.password,
            roles: [...DEMO_USER_ROLES],
          },
        ];
  const ids = new Set<string>();
  for (const u of userList) {
    if (ids.has(u.id)) throw new Error(`directory.emulator: user id ${u.id} is configured twice`);
    ids.add(u.id);
  }
  return {
    tenant: tenant ?? demo?.tenant ?? guidFrom(`tenant:${appList[0]!.clientId}`),
    domains: tenantDomains(domains, userList),
    apps: appList,
    users: userList,
    ...(demo ? { demoFile } : {}),
  };
}

/**
 * The tenant's domain names: its users' domains, and those configured or, without any, an
 * initial `<name>.onmicrosoft.com` named after the first user's domain (`carol@contoso.example`
 * → `contoso.onmicrosoft.com`), as every Entra tenant has one.
 */
function tenantDomains(configured: string[] | undefined, users: UserPrincipal[]): string[] {
  const ofUsers = users.map((u) => u.userPrincipalName.split('@')[1]?.toLowerCase() ?? '').filter((d) => d !== '');
  const first = ofUsers[0];
  const initial = first === undefined || first.endsWith('.onmicrosoft.com') ? [] : [`${first.split('.')[0]}.onmicrosoft.com`];
  const named = configured && configured.length > 0 ? configured.map((d) => d.toLowerCase()) : initial;
  return [...new Set([...named, ...ofUsers])];
}

export function findUser(principals: Principals, idOrUpn: string): UserPrincipal | undefined {
  const wanted = idOrUpn.toLowerCase();
  return principals.users.find((u) => u.id.toLowerCase() === wanted || u.userPrincipalName.toLowerCase() === wanted);
}
