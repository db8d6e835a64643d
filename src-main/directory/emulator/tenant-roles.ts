/**
 * Tenant-wide directory roles a user can hold in the emulator: the built-in roles that manage
 * entitlement management in every catalog. By display name, with Entra's template ids.
 */
export const TENANT_ROLES = {
  'Global Administrator': '62e90394-69f5-4237-9190-012177145e10',
  'Identity Governance Administrator': '45d8d3c5-c802-45c6-b32a-1d70b5e1e86e',
} as const;

export type TenantRole = keyof typeof TENANT_ROLES;

export const TENANT_ROLE_NAMES = Object.keys(TENANT_ROLES) as [TenantRole, ...TenantRole[]];

/** The generated demo user's roles: the console's policy editor works for them out of the box. */
export const DEMO_USER_ROLES: readonly TenantRole[] = ['Identity Governance Administrator'];

/** Roles that may write entitlement management anywhere (besides a catalog's owners in it). */
export const ENTITLEMENT_ADMIN_ROLES: readonly TenantRole[] = ['Global Administrator', 'Identity Governance Administrator'];
