/**
 * "photos/a.jpg" numbered n: "photos/a (n).jpg", as a file manager names a copy it keeps beside
 * the original. A name without an extension (or a dotfile such as `.env`) takes " (n)" at its end.
 */
export function numberedKey(key: string, n: number): string {
  const slash = key.lastIndexOf('/');
  const folder = key.slice(0, slash + 1);
  const name = key.slice(slash + 1);
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return `${folder}${name} (${n})`;
  return `${folder}${name.slice(0, dot)} (${n})${name.slice(dot)}`;
}

/**
 * The key each "keep both" upload takes: the first "name (n).ext" that neither the bucket (asked
 * through `exists`, many keys a call) nor this batch holds. Candidates are tried in rounds, so a
 * batch of many conflicts costs a few requests, not one per name.
 */
export async function keepBothKeys(
  keys: readonly string[],
  claimed: ReadonlySet<string>,
  exists: (keys: string[]) => Promise<Set<string>>,
  maxNumber = 999,
): Promise<Map<string, string>> {
  const taken = new Set(claimed);
  const chosen = new Map<string, string>();
  const next = new Map(keys.map((key) => [key, 1]));
  while (next.size > 0) {
    const candidates = new Map<string, string>();
    for (const [key, n] of next) {
      if (n > maxNumber) throw new Error(`no free name for ${key} up to (${maxNumber})`);
      candidates.set(key, numberedKey(key, n));
    }
    const inBucket = await exists([...candidates.values()].filter((candidate) => !taken.has(candidate)));
    for (const [key, candidate] of candidates) {
      if (taken.has(candidate) || inBucket.has(candidate)) {
        next.set(key, next.get(key)! + 1);
        continue;
      }
      taken.add(candidate);
      chosen.set(key, candidate);
      next.delete(key);
    }
  }
  return chosen;
}
