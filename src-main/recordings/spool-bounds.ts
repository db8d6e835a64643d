export interface SpooledSize {
  id: string;
  bytes: number;
  /** Being uploaded right now: it is about to leave the spool, so it is not dropped. */
  busy?: boolean;
}

/**
 * Which spooled segments to drop so the spool fits in `maxBytes`: the oldest first (the
 * newest are what a user most likely wants when the bucket comes back), never one being
 * uploaded. `entries` are oldest first.
 */
export function segmentsToDrop(entries: readonly SpooledSize[], maxBytes: number): string[] {
  let total = entries.reduce((sum, e) => sum + e.bytes, 0);
  const drop: string[] = [];
  for (const entry of entries) {
    if (total <= maxBytes) break;
    if (entry.busy) continue;
    drop.push(entry.id);
    total -= entry.bytes;
  }
  return drop;
}
