import type { SourceLink } from '../../media/frames/frame-consumer';

/** Where a picture came from: the track, and the source connection that fed it then. */
export interface PictureOrigin {
  source: SourceLink;
  connection: number | undefined;
}

/** Is the source connection the picture came from still the one feeding the stream? */
export const isLive = ({ source, connection }: PictureOrigin): boolean => connection !== undefined && source.connection === connection;

export interface SnapshotCache {
  /** The stream's last picture if it is at most `maxAgeMs` old and its source connection still feeds the stream. */
  get(streamName: string, maxAgeMs: number): Uint8Array | undefined;
  set(streamName: string, jpeg: Uint8Array, origin: PictureOrigin): void;
}

/**
 * The last snapshot of each stream, for `frame.jpeg?cache=5s` (clients that poll often get a
 * picture from memory). A picture is served only while the source connection it came from is
 * still up: once the stream idles, or the source reconnects (a camera back at another size) or
 * is replaced, the next snapshot takes a new one. Bounded: the oldest entries go when there are
 * more than `limit`, and nothing older than `maxAgeMs` is ever served or kept past the next write.
 */
export function createSnapshotCache(limit = 64, maxAgeMs = 24 * 3600 * 1000): SnapshotCache {
  const entries = new Map<string, { jpeg: Uint8Array; at: number; origin: PictureOrigin }>();
  return {
    get(streamName, wantedAgeMs) {
      const entry = entries.get(streamName);
      if (!entry) return undefined;
      if (!isLive(entry.origin)) {
        entries.delete(streamName);
        return undefined;
      }
      const age = Date.now() - entry.at;
      return age <= Math.min(wantedAgeMs, maxAgeMs) ? entry.jpeg : undefined;
    },
    set(streamName, jpeg, origin) {
      const now = Date.now();
      entries.delete(streamName); // re-inserted last: Map order is age order
      entries.set(streamName, { jpeg, at: now, origin });
      for (const [name, entry] of entries) {
        if (entries.size <= limit && now - entry.at <= maxAgeMs) break;
        entries.delete(name);
      }
    },
  };
}
