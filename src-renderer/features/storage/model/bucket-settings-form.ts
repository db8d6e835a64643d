import type { CorsRule, LifecycleRule } from '@shared/contract/storage';

/** Kodo's own rule for a new bucket's name (mkbucketv3): 3-63 letters, digits, - and _. */
export function newBucketNameProblem(name: string): string | undefined {
  if (name === '') return 'type a name';
  if (name.length < 3 || name.length > 63) return 'a bucket name has 3-63 characters';
  if (!/^[a-zA-Z0-9_-]+$/.test(name)) return 'letters, digits, - and _ only';
  return undefined;
}

/** A list typed one per line or comma-separated (origins, headers, referer patterns): trimmed, without blanks or repeats. */
export function parseList(text: string): string[] {
  return [
    ...new Set(
      text
        .split(/[\n,;]/)
        .map((part) => part.trim())
        .filter(Boolean),
    ),
  ];
}

/** A lifecycle rule in one line: "tmp/ · to Infrequent after 30 days · deleted after 365 days". */
export function lifecycleSummary(rule: LifecycleRule): string {
  const steps = [
    rule.toInfrequentAfterDays > 0 ? `to Infrequent after ${rule.toInfrequentAfterDays} days` : undefined,
    rule.toArchiveAfterDays > 0 ? `to Archive after ${rule.toArchiveAfterDays} days` : undefined,
    rule.deleteAfterDays > 0 ? `deleted after ${rule.deleteAfterDays} days` : undefined,
  ].filter(Boolean);
  return [rule.prefix === '' ? 'every object' : rule.prefix, ...(steps.length > 0 ? steps : ['no action'])].join(' · ');
}

/** Why a lifecycle rule cannot be saved, as Kodo would refuse it: each later step after the earlier ones. */
export function lifecycleProblem(rule: LifecycleRule): string | undefined {
  if (!/^[A-Za-z0-9_]{1,49}$/.test(rule.name)) return 'a rule name has letters, digits and _ (1-49)';
  const { toInfrequentAfterDays: line, toArchiveAfterDays: archive, deleteAfterDays: remove } = rule;
  if (line === 0 && archive === 0 && remove === 0) return 'give at least one number of days';
  if (line > 0 && archive > 0 && archive <= line) return 'Archive must come after Infrequent';
  if (remove > 0 && remove <= Math.max(line, archive)) return 'deletion must come after the storage class changes';
  return undefined;
}

/** A CORS rule in one line: "GET, HEAD from https://app.example.com (max-age 600 s)". */
export function corsSummary(rule: CorsRule): string {
  return `${rule.allowedMethods.join(', ')} from ${rule.allowedOrigins.join(', ')}${rule.maxAgeSeconds > 0 ? ` (max-age ${rule.maxAgeSeconds} s)` : ''}`;
}
