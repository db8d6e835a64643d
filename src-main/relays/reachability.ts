import type { RelayState } from '@shared/contract/relays';

/**
 * Whether a remote relay answers, as the console shows it: `checking` until the first answer,
 * then `reachable` or `unreachable` with the reason and since when. One failed check of a
 * reachable relay only marks it suspect (a lost request is not an outage) and asks for a quick
 * recheck; the second in a row makes it unreachable. One good answer makes it reachable again.
 */
export interface Reachability {
  state: RelayState;
  reason?: string;
  /** When it entered this state. */
  sinceMs: number;
  checkedMs?: number;
  /** Failed checks in a row. */
  failures: number;
}

export type CheckOutcome = { ok: true; atMs: number } | { ok: false; reason: string; atMs: number };

/** Failed checks in a row that make a reachable relay unreachable. */
export const FAILURES_TO_UNREACHABLE = 2;

export const startChecking = (nowMs: number): Reachability => ({ state: 'checking', sinceMs: nowMs, failures: 0 });

export function nextReachability(current: Reachability, outcome: CheckOutcome): Reachability {
  const checkedMs = outcome.atMs;
  if (outcome.ok) {
    const sinceMs = current.state === 'reachable' ? current.sinceMs : outcome.atMs;
    return { state: 'reachable', sinceMs, checkedMs, failures: 0 };
  }
  const failures = current.failures + 1;
  if (current.state === 'reachable' && failures < FAILURES_TO_UNREACHABLE) {
    return { ...current, checkedMs, failures };
  }
  // Still down: the reason may change (refused, then timed out), the time it went down does not.
  const sinceMs = current.state === 'unreachable' ? current.sinceMs : outcome.atMs;
  return { state: 'unreachable', reason: outcome.reason, sinceMs, checkedMs, failures };
}

/** A reachable relay whose last check failed: checked again soon rather than at the next round. */
export const isSuspect = (reach: Reachability): boolean => reach.state === 'reachable' && reach.failures > 0;
