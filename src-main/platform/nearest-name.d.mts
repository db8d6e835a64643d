/** Edit distance counting insertions, deletions, substitutions and swaps of neighbours as one step each. */
export function editDistance(a: string, b: string): number;
/** The candidate a typo most likely meant (`straems` → `streams`), or undefined when none is close. */
export function nearestName(word: string, candidates: Iterable<string>): string | undefined;
