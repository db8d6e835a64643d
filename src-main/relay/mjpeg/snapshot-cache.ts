export interface SnapshotCache {
  /** The stream's last picture if it is at most `maxAgeMs` old. */
  get(streamName: string, maxAgeMs: number): Uint8Array | undefined;
  set(streamName: string, jpeg: Uint8Array): void;
}

/**
 * The last snapshot of each stream, for `frame.jpeg?cache=5s` (clients that poll often get a
 * picture from memory). Bounded: the oldest entries go when there are more than `limit`, and
 * nothing older than `maxAgeMs` is ever served or kept past the next write.
 */
export function createSnapshotCache(limit = 64, maxAgeMs = 24 * 3600 * 1000): SnapshotCache {
  const entries = new Map<string, { jpeg: Uint8Array; at: number }>();
  return {
    get(streamName, wantedAgeMs) {
      const entry = entries.get(streamName);
      if (!entry) return undefined;
      const age = Date.now() - entry.at;
      return age <= Math.min(wantedAgeMs, maxAgeMs) ? entry.jpeg : undefined;
    },
    set(streamName, jpeg) {
      const now = Date.now();
      entries.delete(streamName); // re-inserted last: Map order is age order
      entries.set(streamName, { jpeg, at: now });
      for (const [name, entry] of entries) {
        if (entries.size <= limit && now - entry.at <= maxAgeMs) break;
        entries.delete(name);
      }
    },
  };
}
