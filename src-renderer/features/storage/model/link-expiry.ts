/** Seconds in each unit a link's expiry may be typed in. */
const UNITS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400 };

const MAX_LINK_SECONDS = 30 * 86_400;

/** The presets the link dialog offers; any other duration is typed (`90s`, `15m`, `2h`, `7d`). */
export const LINK_PRESETS = [
  { label: '1 hour', value: '1h' },
  { label: '1 day', value: '1d' },
  { label: '7 days', value: '7d' },
] as const;

/** `15m` → 900; a bare number is minutes. Errors say what would be accepted. */
export function parseExpiry(text: string): { seconds: number } | { error: string } {
  const match = /^\s*(\d+(?:\.\d+)?)\s*([smhd]?)\s*$/i.exec(text);
  if (!match) return { error: 'type a duration such as 90s, 15m, 2h or 7d' };
  const seconds = Math.round(Number(match[1]) * UNITS[(match[2] || 'm').toLowerCase()]!);
  if (seconds < 1) return { error: 'the link must live at least a second' };
  if (seconds > MAX_LINK_SECONDS) return { error: 'a link can live at most 30 days' };
  return { seconds };
}
