import type { CorsRule, LifecycleRule, RefererRule } from '@shared/contract/storage';

// The contract's bucket settings in and out of the shapes Kodo's uc API speaks. Pure, so the
// translation is tested without a service.

/** A lifecycle rule as `/rules/get` answers it (and `/rules/add` takes it, as form fields). */
export interface WireLifecycleRule {
  name: string;
  prefix?: string;
  to_line_after_days?: number;
  to_archive_after_days?: number;
  delete_after_days?: number;
  [field: string]: unknown;
}

export interface WireCorsRule {
  allowed_origin: string[];
  allowed_method: string[];
  allowed_header?: string[];
  exposed_header?: string[];
  max_age?: number;
}

/** What `/v2/bucketInfo` says of referer anti-leech. */
export interface WireRefererInfo {
  anti_leech_mode?: number;
  refer_wl?: string[] | null;
  refer_bl?: string[] | null;
  no_refer?: boolean;
}

const days = (value: unknown) => (typeof value === 'number' && value > 0 ? value : Number(value) > 0 ? Number(value) : 0);

export function lifecycleFromWire(rule: WireLifecycleRule): LifecycleRule {
  return {
    name: String(rule.name),
    prefix: typeof rule.prefix === 'string' ? rule.prefix : '',
    toInfrequentAfterDays: days(rule.to_line_after_days),
    toArchiveAfterDays: days(rule.to_archive_after_days),
    deleteAfterDays: days(rule.delete_after_days),
  };
}

/** The form fields of `/rules/add` and `/rules/update` (BucketManager's option names). */
export function lifecycleToWire(rule: LifecycleRule): {
  name: string;
  prefix: string;
  to_line_after_days: number;
  to_archive_after_days: number;
  delete_after_days: number;
} {
  return {
    name: rule.name,
    prefix: rule.prefix,
    to_line_after_days: rule.toInfrequentAfterDays,
    to_archive_after_days: rule.toArchiveAfterDays,
    delete_after_days: rule.deleteAfterDays,
  };
}

const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.map(String) : typeof value === 'string' && value !== '' ? [value] : [];

export function corsFromWire(rule: WireCorsRule): CorsRule {
  return {
    allowedOrigins: strings(rule.allowed_origin),
    allowedMethods: strings(rule.allowed_method)
      .map((m) => m.toUpperCase())
      .filter((m): m is CorsRule['allowedMethods'][number] => ['GET', 'HEAD', 'PUT', 'POST', 'DELETE'].includes(m)),
    allowedHeaders: strings(rule.allowed_header),
    exposedHeaders: strings(rule.exposed_header),
    maxAgeSeconds: typeof rule.max_age === 'number' ? rule.max_age : 0,
  };
}

export function corsToWire(rule: CorsRule): WireCorsRule {
  return {
    allowed_origin: rule.allowedOrigins,
    allowed_method: rule.allowedMethods,
    ...(rule.allowedHeaders.length > 0 ? { allowed_header: rule.allowedHeaders } : {}),
    ...(rule.exposedHeaders.length > 0 ? { exposed_header: rule.exposedHeaders } : {}),
    ...(rule.maxAgeSeconds > 0 ? { max_age: rule.maxAgeSeconds } : {}),
  };
}

export function refererFromWire(info: WireRefererInfo): RefererRule {
  const mode = info.anti_leech_mode === 1 ? 'allow' : info.anti_leech_mode === 2 ? 'deny' : 'off';
  const patterns = mode === 'allow' ? (info.refer_wl ?? []) : mode === 'deny' ? (info.refer_bl ?? []) : [];
  // A bucket that never had a rule lets requests without a Referer through.
  return { mode, patterns, allowEmpty: mode === 'off' ? true : info.no_refer === true };
}

/** The query of `/referAntiLeech` (putReferAntiLeech's options): mode 0/1/2, `;`-joined patterns. */
export function refererToWire(rule: RefererRule): { mode: number; norefer: number; pattern: string; source_enabled: number } {
  const mode = rule.mode === 'allow' ? 1 : rule.mode === 'deny' ? 2 : 0;
  // source_enabled 1: the origin (Kodo's own download domains) enforces it too, not only the CDN.
  return { mode, norefer: rule.allowEmpty ? 1 : 0, pattern: mode === 0 ? '*' : rule.patterns.join(';'), source_enabled: 1 };
}

/** The test domain Kodo gives a new bucket (`*.bkt.clouddn.com` and its regional forms) or the emulator's. */
export function isTestDomain(domain: string): boolean {
  return /(^|\.)([a-z]+-)?bkt\.clouddn\.com$|\.bkt\.kodo\.localhost$/i.test(domain);
}
