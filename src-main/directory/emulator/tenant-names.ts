import type { Principals } from './principals';

/** Sign-in paths that take any work account rather than one tenant. */
export const MULTI_TENANT = new Set(['organizations', 'common']);

/**
 * The tenant a sign-in URL names, as Entra reads it: its id, or one of its domain names
 * (`Principals.domains`, e.g. contoso.onmicrosoft.com), case-insensitively; `organizations` and
 * `common` stand for it too. Undefined for another tenant.
 */
export function resolveTenant(segment: string, principals: Principals): string | undefined {
  const wanted = segment.toLowerCase();
  if (wanted === principals.tenant.toLowerCase() || MULTI_TENANT.has(wanted)) return principals.tenant;
  return principals.domains.includes(wanted) ? principals.tenant : undefined;
}
