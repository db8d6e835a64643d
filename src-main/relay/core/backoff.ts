/**
 * Delay before reconnect attempt `n` (0-based), as go2rtc paces it: 1 s five times, 5 s five
 * times, 10 s ten times, then once a minute.
 */
export function reconnectDelayMs(attempt: number): number {
  if (attempt < 5) return 1_000;
  if (attempt < 10) return 5_000;
  if (attempt < 20) return 10_000;
  return 60_000;
}
