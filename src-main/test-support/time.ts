import { setTimeout as elapse } from 'node:timers/promises';

/**
 * Time in tests. A test waits on what it means: an event, a promise the code gives, a condition
 * polled with a deadline (`vi.waitFor`, `expect.poll`, `waitUntil` below) or fake timers. A fixed
 * sleep is slow when the machine is fast and flaky when it is slow, so lint refuses
 * `new Promise((r) => setTimeout(r, ms))` in test files. Where the time itself is the point of a
 * test, one of these helpers says why, and lint allows them.
 */

/**
 * Polls `condition` (every `interval` ms) until it returns something other than undefined, null
 * or false, and returns that; fails after `timeout` ms saying `what` it waited for. For
 * conditions that are not assertions (`vi.waitFor` suits those).
 */
export async function waitUntil<T>(
  condition: () => T | Promise<T>,
  { timeout = 5_000, interval = 10, what = 'the condition' }: { timeout?: number; interval?: number; what?: string } = {},
): Promise<Exclude<T, undefined | null | false>> {
  const deadline = Date.now() + timeout;
  for (;;) {
    const value = await condition();
    if (value !== undefined && value !== null && value !== false) return value as Exclude<T, undefined | null | false>;
    if (Date.now() > deadline) throw new Error(`waited ${timeout} ms for ${what}`);
    await elapse(interval);
  }
}

/**
 * A state the scenario holds for a while: a camera stays down, a client stays silent, a source
 * stays up long enough for a timer of the code under test (in another process or a real
 * socket) to fire. The duration is part of what is tested.
 */
export const holdFor = (ms: number): Promise<void> => elapse(ms).then(() => undefined);

/**
 * A window in which something must NOT happen (no packet, no reconnect, no second frame): the
 * caller checks afterwards that nothing came. A negative can only be observed over time.
 */
export const quietFor = (ms: number): Promise<void> => elapse(ms).then(() => undefined);

/** Whether `promise` resolves within `ms` (true), or not (false): for "closes within", "answers within". */
export function resolvesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => (timer = setTimeout(resolve, ms, false)));
  return Promise.race([promise.then(() => true), late]).finally(() => clearTimeout(timer));
}

/** `promise`, or a rejection saying `what` did not happen within `ms`. */
export function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>(
    (_, reject) => (timer = setTimeout(() => reject(new Error(`${what} did not happen within ${ms} ms`)), ms)),
  );
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}
