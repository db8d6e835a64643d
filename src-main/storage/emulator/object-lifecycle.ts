import type { ObjectRow } from './metadata-store';

const DAY_MS = 86_400_000;

/** An object's own lifecycle (setObjectLifeCycle, restoreAr), kept as JSON in its row; instants in epoch ms. */
export interface ObjectLifecycle {
  toIA?: number;
  toArchiveIR?: number;
  toArchive?: number;
  toDeepArchive?: number;
  /** restoreAr: the bytes of an archived object are readable until this instant. */
  restoredUntil?: number;
}

/** The `lifecycle` op's day options, by the field they set. */
export const LIFECYCLE_OPTIONS = {
  toIAAfterDays: 'toIA',
  toArchiveIRAfterDays: 'toArchiveIR',
  toArchiveAfterDays: 'toArchive',
  toDeepArchiveAfterDays: 'toDeepArchive',
} as const;

/** The bucket rule fields (`/rules/add`) for the same transitions. */
const RULE_FIELDS = {
  to_line_after_days: 'toIA',
  to_archive_ir_after_days: 'toArchiveIR',
  to_archive_after_days: 'toArchive',
  to_deep_archive_after_days: 'toDeepArchive',
} as const;

const STAT_NAMES = {
  toIA: 'transitionToIA',
  toArchiveIR: 'transitionToArchiveIR',
  toArchive: 'transitionToARCHIVE',
  toDeepArchive: 'transitionToDeepArchive',
} as const;

export function readLifecycle(row: Pick<ObjectRow, 'lifecycle'>): ObjectLifecycle {
  return row.lifecycle ? (JSON.parse(row.lifecycle) as ObjectLifecycle) : {};
}

export const writeLifecycle = (lifecycle: ObjectLifecycle): string | null =>
  Object.keys(lifecycle).length > 0 ? JSON.stringify(lifecycle) : null;

/**
 * One `lifecycle` op on an object's own settings: days from now for each option given; 0 leaves
 * a setting as it is and -1 removes it, as Kodo reads them.
 */
export function changeLifecycle(
  current: ObjectLifecycle,
  days: Partial<Record<keyof typeof LIFECYCLE_OPTIONS, number>>,
  now: number,
): ObjectLifecycle {
  const next: ObjectLifecycle = { ...current };
  for (const [option, field] of Object.entries(LIFECYCLE_OPTIONS) as [keyof typeof LIFECYCLE_OPTIONS, keyof typeof STAT_NAMES][]) {
    const value = days[option];
    if (value === undefined || value === 0) continue;
    if (value < 0) delete next[field];
    else next[field] = now + value * DAY_MS;
  }
  return next;
}

/**
 * The lifecycle fields of a stat reply (Unix seconds): the object's own settings first, else the
 * bucket's rules whose prefix the key has (counted from the upload), and `restoreStatus` 2 while
 * a restored archive copy is readable.
 */
export function lifecycleStatFields(row: ObjectRow, rules: readonly Record<string, unknown>[], now: number): Record<string, number> {
  const own = readLifecycle(row);
  const putMs = Math.floor(row.put_time / 10_000);
  const out: Record<string, number> = {};
  for (const [field, name] of Object.entries(STAT_NAMES) as [keyof typeof STAT_NAMES, string][]) {
    let at = own[field];
    if (at === undefined) {
      for (const rule of rules) {
        const prefix = typeof rule['prefix'] === 'string' ? rule['prefix'] : '';
        if (!row.key.startsWith(prefix)) continue;
        const ruleField = (Object.keys(RULE_FIELDS) as (keyof typeof RULE_FIELDS)[]).find((f) => RULE_FIELDS[f] === field)!;
        const ruleDays = Number(rule[ruleField] ?? 0);
        if (ruleDays > 0) at = Math.min(at ?? Infinity, putMs + ruleDays * DAY_MS);
      }
    }
    if (at !== undefined) out[name] = Math.floor(at / 1000);
  }
  if (row.expire_at === null) {
    for (const rule of rules) {
      const prefix = typeof rule['prefix'] === 'string' ? rule['prefix'] : '';
      const ruleDays = Number(rule['delete_after_days'] ?? 0);
      if (row.key.startsWith(prefix) && ruleDays > 0)
        out['expiration'] = Math.min(out['expiration'] ?? Infinity, Math.floor((putMs + ruleDays * DAY_MS) / 1000));
    }
  }
  if (own.restoredUntil !== undefined && own.restoredUntil > now) out['restoreStatus'] = 2;
  return out;
}
