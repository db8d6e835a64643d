/** Wait before the next try: 1 s, 2 s, 4 s, ... up to 30 s, so a dead camera costs little. */
export function backoffMs(attempt: number): number {
  return Math.min(1_000 * 2 ** Math.max(0, attempt), 30_000);
}
