/**
 * The name as a type spells it, for a name in a query option spelled any which way: Graph reads
 * property names in `$filter`, `$orderby`, `$select` and `$expand` case-insensitively
 * (`target/objectid` is `target/objectId`). Undefined when the type has no such name.
 */
export function canonicalName(name: string, names: Iterable<string>): string | undefined {
  const wanted = name.toLowerCase();
  for (const candidate of names) if (candidate.toLowerCase() === wanted) return candidate;
  return undefined;
}
