import type { CalendarRound, CalendarSyncStatus } from '@shared/contract/directory';

const REASON_TEXT = {
  first: 'first synchronisation',
  expired: 'resync after the delta token expired (410)',
  resync: 'resync asked for',
  connection: 'resync: the directory connection changed',
} as const;

/** The state as the badge says it. */
export function stateLabel(status: CalendarSyncStatus): string {
  switch (status.state) {
    case 'syncing':
      return 'Syncing';
    case 'idle':
      return status.nextRoundAt ? 'Waiting for the next round' : 'Idle';
    case 'error':
      return 'Error';
    default:
      return status.target ? 'Paused' : 'Not started';
  }
}

/** "full: first synchronisation" / "incremental". */
export function roundKindText(round: Pick<CalendarRound, 'kind' | 'reason'>): string {
  return round.kind === 'full' ? `full: ${REASON_TEXT[round.reason ?? 'first']}` : 'incremental';
}

/** "+12 · ~3 · −5 in 4 pages" */
export function roundCountsText(round: { added: number; updated: number; removed: number; pages: number }): string {
  return `+${round.added} added · ${round.updated} updated · −${round.removed} removed in ${round.pages} ${round.pages === 1 ? 'page' : 'pages'}`;
}

/** "in 2 min" / "in 40 s" / "now", from the next round's time and the clock. */
export function untilText(at: string | null, now: number): string | undefined {
  if (!at) return undefined;
  const seconds = Math.round((Date.parse(at) - now) / 1000);
  if (seconds <= 0) return 'now';
  if (seconds < 60) return `in ${seconds} s`;
  const minutes = Math.round(seconds / 60);
  return minutes < 60 ? `in ${minutes} min` : `in ${Math.round(minutes / 60)} h`;
}

/** Monday 00:00 (local) of the week holding `day`, and the 7 days from it. */
export function weekOf(day: Date): { start: Date; end: Date; days: Date[] } {
  const start = new Date(day.getFullYear(), day.getMonth(), day.getDate());
  start.setDate(start.getDate() - ((start.getDay() + 6) % 7));
  const days = Array.from({ length: 7 }, (_, i) => new Date(start.getFullYear(), start.getMonth(), start.getDate() + i));
  const end = new Date(start.getFullYear(), start.getMonth(), start.getDate() + 7);
  return { start, end, days };
}

/** Events of one local day: those overlapping it (an all-day or multi-day event shows on each day). */
export function eventsOfDay<T extends { start: string; end: string }>(events: readonly T[], day: Date): T[] {
  const from = day.getTime();
  const to = new Date(day.getFullYear(), day.getMonth(), day.getDate() + 1).getTime();
  return events.filter((e) => Date.parse(e.start) < to && (Date.parse(e.end) > from || Date.parse(e.start) >= from));
}
