// Graph writes durations in ISO 8601 (P14D, PT12H, P2W); people think in a number and a unit.
// The duration inputs show the pair and write the ISO text back; a duration that does not fit
// one unit (P1DT12H) is shown as hours.

export const DURATION_UNITS = ['hours', 'days', 'weeks'] as const;
export type DurationUnit = (typeof DURATION_UNITS)[number];
export interface DurationParts {
  amount: number;
  unit: DurationUnit;
}

const PATTERN = /^P(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?)?$/;

/**
 * The parts of an ISO duration; null for empty or what this input cannot show (months, minutes).
 * Zero is kept (P0D is 0 days): a 0 the person typed stays in the field, with the rule's message.
 */
export function durationParts(iso: string | null | undefined): DurationParts | null {
  if (!iso) return null;
  const m = PATTERN.exec(iso);
  if (!m || m[4] || m[5]) return null;
  const [weeks, days, hours] = [m[1], m[2], m[3]].map((v) => Number(v ?? 0)) as [number, number, number];
  const total = (weeks * 7 + days) * 24 + hours;
  if (total === 0) return { amount: 0, unit: m[3] !== undefined ? 'hours' : m[1] !== undefined && m[2] === undefined ? 'weeks' : 'days' };
  if (hours === 0 && weeks > 0 && days === 0) return { amount: weeks, unit: 'weeks' };
  if (total % 24 === 0) return { amount: total / 24, unit: 'days' };
  return { amount: total, unit: 'hours' };
}

export function isoDuration({ amount, unit }: DurationParts): string {
  if (unit === 'weeks') return `P${amount}W`;
  return unit === 'days' ? `P${amount}D` : `PT${amount}H`;
}
