import { graphDateTimeToUtcMs, type GraphDateTimeTimeZone } from './event-time';

/** One entry of a calendarView delta page, ready to apply. */
export type DeltaItem =
  | { kind: 'removed'; id: string }
  | {
      kind: 'event';
      id: string;
      startMs: number;
      endMs: number;
      lastModified: string | null;
      changeKey: string | null;
      /** The event as received, serialized once. */
      json: string;
    }
  /** An event whose start/end cannot be placed in time: kept out of the local copy. */
  | { kind: 'unplaceable'; id: string };

export interface DeltaPage {
  items: DeltaItem[];
  nextLink: string | null;
  deltaLink: string | null;
}

/** A reply that is not a delta page: the round stops and nothing of it is applied. */
export class DeltaPageError extends Error {
  override readonly name = 'DeltaPageError';
}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const stringOrNull = (value: unknown): string | null => (typeof value === 'string' ? value : null);

function parseItem(raw: unknown, index: number): DeltaItem {
  if (!isObject(raw) || typeof raw.id !== 'string' || raw.id === '') {
    throw new DeltaPageError(`delta page entry ${index} has no id`);
  }
  if (raw['@removed'] !== undefined) return { kind: 'removed', id: raw.id };
  const startMs = graphDateTimeToUtcMs(raw.start as GraphDateTimeTimeZone | undefined);
  const endMs = graphDateTimeToUtcMs(raw.end as GraphDateTimeTimeZone | undefined);
  if (startMs === null || endMs === null) return { kind: 'unplaceable', id: raw.id };
  return {
    kind: 'event',
    id: raw.id,
    startMs,
    endMs,
    lastModified: stringOrNull(raw.lastModifiedDateTime),
    changeKey: stringOrNull(raw.changeKey),
    json: JSON.stringify(raw),
  };
}

/**
 * Reads a calendarView delta reply: `value` plus exactly one of `@odata.nextLink` (more pages in
 * this round) and `@odata.deltaLink` (the round is complete). Anything else is refused whole,
 * so a broken reply never half-applies.
 */
export function parseDeltaPage(body: unknown): DeltaPage {
  if (!isObject(body) || !Array.isArray(body.value)) throw new DeltaPageError('the delta reply has no value array');
  const nextLink = stringOrNull(body['@odata.nextLink']);
  const deltaLink = stringOrNull(body['@odata.deltaLink']);
  if (nextLink && deltaLink) throw new DeltaPageError('the delta reply carries both @odata.nextLink and @odata.deltaLink');
  if (!nextLink && !deltaLink) throw new DeltaPageError('the delta reply carries neither @odata.nextLink nor @odata.deltaLink');
  return { items: body.value.map(parseItem), nextLink, deltaLink };
}
