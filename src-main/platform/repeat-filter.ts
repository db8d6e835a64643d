/**
 * Says whether a message is new: the first time a key is seen, and again once `windowMs` has
 * passed since it was last said. Expected refusals (a camera that is down answers every viewer
 * with the same 503) are logged once per stream and cause instead of once per request, and a
 * cause that comes back an hour later is said again. At most `maxKeys` are kept: a flood of
 * distinct keys forgets the oldest, never grows without bound.
 */
export interface RepeatFilter {
  isNew(key: string): boolean;
}

export function createRepeatFilter({ windowMs = 3_600_000, maxKeys = 1_000, now = () => Date.now() } = {}): RepeatFilter {
  const lastSaid = new Map<string, number>();
  return {
    isNew(key) {
      const at = now();
      const said = lastSaid.get(key);
      if (said !== undefined && at - said < windowMs) return false;
      // Re-inserted keys move to the end, so the first key is the one said longest ago.
      lastSaid.delete(key);
      if (lastSaid.size >= maxKeys) lastSaid.delete(lastSaid.keys().next().value!);
      lastSaid.set(key, at);
      return true;
    },
  };
}
