// What a save changes: the properties whose value differs between the body the service has and
// the body that will be PUT. Objects are compared property by property; a list item that was
// added or removed is one change, so a new approval stage reads as one line, not eight.

export interface PolicyChange {
  /** `requestApprovalSettings.stages[1]`, `questions[0].text` */
  path: string;
  kind: 'added' | 'removed' | 'changed';
  before?: unknown;
  after?: unknown;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
/** Graph reads a missing property of a PUT body as null: the two are the same value here. */
const isAbsent = (value: unknown) => value === undefined || value === null;
const join = (path: string, key: string | number) => (typeof key === 'number' ? `${path}[${key}]` : path === '' ? key : `${path}.${key}`);

function walk(before: unknown, after: unknown, path: string, out: PolicyChange[]): void {
  if (isAbsent(before) && isAbsent(after)) return;
  if (isAbsent(before)) {
    out.push({ path, kind: 'added', after });
    return;
  }
  if (isAbsent(after)) {
    out.push({ path, kind: 'removed', before });
    return;
  }
  if (Array.isArray(before) && Array.isArray(after)) {
    for (let i = 0; i < Math.max(before.length, after.length); i++) {
      if (i >= before.length) out.push({ path: join(path, i), kind: 'added', after: after[i] });
      else if (i >= after.length) out.push({ path: join(path, i), kind: 'removed', before: before[i] });
      else walk(before[i], after[i], join(path, i), out);
    }
    return;
  }
  if (isObject(before) && isObject(after)) {
    for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) walk(before[key], after[key], join(path, key), out);
    return;
  }
  if (before !== after) out.push({ path, kind: 'changed', before, after });
}

export function policyDiff(before: unknown, after: unknown): PolicyChange[] {
  const out: PolicyChange[] = [];
  walk(before, after, '', out);
  return out;
}
