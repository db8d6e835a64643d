/**
 * The tiles in the user's order: names they arranged first (those that still exist), then new
 * streams by name (or `compare`), so a stream added later never reshuffles the grid.
 */
export function orderTiles(
  streams: readonly string[],
  saved: readonly string[],
  compare: (a: string, b: string) => number = (a, b) => a.localeCompare(b),
): string[] {
  const exists = new Set(streams);
  const placed = saved.filter((name, i) => exists.has(name) && saved.indexOf(name) === i);
  const placedSet = new Set(placed);
  return [...placed, ...streams.filter((name) => !placedSet.has(name)).sort(compare)];
}

/** The order after dragging the tile `from` onto the place of `to`. */
export function moveTile(order: readonly string[], from: string, to: string): string[] {
  const start = order.indexOf(from);
  const end = order.indexOf(to);
  if (start < 0 || end < 0 || start === end) return [...order];
  const next = [...order];
  next.splice(start, 1);
  next.splice(end, 0, from);
  return next;
}
