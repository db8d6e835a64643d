/** Statuses Graph uses for "not now, try again": throttling, and a busy or restarting backend. */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 503, 504]);

export interface RetryOptions {
  /** Tries in all, the first included (default 4). */
  maxAttempts?: number;
  /** First backoff step when the server gives no Retry-After (default 500 ms), doubled each try. */
  baseDelayMs?: number;
  /** Upper bound of a backoff step (default 30 s). */
  maxDelayMs?: number;
  /** A Retry-After longer than this is not waited for: the call fails instead (default 120 s). */
  maxRetryAfterMs?: number;
}

export interface RetryPolicy {
  maxAttempts: number;
  /** How long to wait before try number `attempt + 1`, or null when the error should surface. */
  delayFor(attempt: number, retryAfterHeader: string | null): number | null;
}

/**
 * Retry-After as seconds (Graph may send fractions, "1.5") or as an HTTP date. Returns ms, or
 * null when absent or unreadable.
 */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | null {
  if (value === null || value.trim() === '') return null;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  // An HTTP date names its day and month ("Sat, 01 Mar 2025 10:00:30 GMT"); Date.parse would
  // also take "-1" or "2025" as dates.
  if (!/[a-z]{3}/i.test(trimmed)) return null;
  const at = Date.parse(trimmed);
  if (Number.isNaN(at)) return null;
  return Math.max(0, at - now);
}

/**
 * The server's Retry-After wins when it sends one; otherwise exponential backoff with full
 * jitter, so many clients throttled at once do not come back in lockstep.
 */
export function createRetryPolicy(options: RetryOptions = {}, random: () => number = Math.random): RetryPolicy {
  const maxAttempts = Math.max(1, options.maxAttempts ?? 4);
  const base = options.baseDelayMs ?? 500;
  const cap = options.maxDelayMs ?? 30_000;
  const maxRetryAfter = options.maxRetryAfterMs ?? 120_000;
  return {
    maxAttempts,
    delayFor(attempt, retryAfterHeader) {
      if (attempt >= maxAttempts) return null;
      const retryAfter = parseRetryAfter(retryAfterHeader);
      if (retryAfter !== null) return retryAfter <= maxRetryAfter ? retryAfter : null;
      const ceiling = Math.min(cap, base * 2 ** (attempt - 1));
      return Math.round(ceiling / 2 + (random() * ceiling) / 2);
    },
  };
}
