import type { Assignment, AssignmentColumn } from '@shared/contract/directory';
import { durationText } from './policy-summary';

// What each assignment column shows, as text: the table, the column chooser and the detail
// view use the same words.

export const ASSIGNMENT_COLUMN_LABELS: Record<AssignmentColumn, string> = {
  target: 'Target',
  accessPackage: 'Access package',
  assignmentPolicy: 'Policy',
  state: 'State',
  status: 'Status',
  schedule: 'Schedule',
  expiredDateTime: 'Expired',
};

export const ASSIGNMENT_STATE_LABELS: Record<string, string> = {
  delivering: 'Delivering',
  partiallyDelivered: 'Partially delivered',
  delivered: 'Delivered',
  expired: 'Expired',
  deliveryFailed: 'Delivery failed',
};

type Loose = Record<string, unknown>;
const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

/** "Alice Example (alice@contoso.com)", or the object id when Graph gave no name. */
export function targetText(target: Assignment['target']): string {
  const t = (target ?? {}) as Loose;
  const name = text(t.displayName);
  const principal = text(t.principalName) ?? text(t.email);
  if (name && principal) return `${name} (${principal})`;
  return name ?? principal ?? text(t.objectId) ?? text(t.id) ?? '—';
}

/** "From 1 Mar 2026 · ends after 365 days", in words, from the assignment's schedule. */
export function scheduleText(schedule: Assignment['schedule'], formatDate: (iso: string) => string): string {
  const s = (schedule ?? {}) as Loose;
  const expiration = (s.expiration ?? {}) as Loose;
  const start = text(s.startDateTime);
  const parts = [start ? `From ${formatDate(start)}` : undefined];
  if (expiration.type === 'afterDuration' && text(expiration.duration))
    parts.push(`ends after ${durationText(expiration.duration as string)}`);
  else if (expiration.type === 'afterDateTime' && text(expiration.endDateTime))
    parts.push(`ends ${formatDate(expiration.endDateTime as string)}`);
  else if (expiration.type === 'noExpiration') parts.push('no end');
  return parts.filter(Boolean).join(' · ') || '—';
}

/** "51–100 of 123" (or "51–100" when Graph did not count). */
export function pageRangeText(pageIndex: number, pageSize: number, shown: number, total: number | null): string {
  if (shown === 0) return total === 0 || total === null ? 'No assignments' : `Nothing on this page of ${total}`;
  const first = pageIndex * pageSize + 1;
  const range = `${first}–${first + shown - 1}`;
  return total === null ? range : `${range} of ${total.toLocaleString('en-US')}`;
}
