// Plain JavaScript (typed by nearest-name.d.mts) so `npm start` can suggest a flag before
// anything is built; the engine uses it for config keys too.

/**
 * Edit distance with adjacent transpositions (optimal string alignment): the fewest
 * insertions, deletions, substitutions and swaps of neighbours, so `lgo` is one step from `log`.
 */
export function editDistance(a, b) {
  const rows = [Array.from({ length: b.length + 1 }, (_, j) => j)];
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(rows[i - 1][j] + 1, row[j - 1] + 1, rows[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, rows[i - 2][j - 2] + 1);
      row.push(best);
    }
    rows.push(row);
  }
  return rows[a.length][b.length];
}

/**
 * The candidate a typo most likely meant (`straems` → `streams`), or undefined when none is
 * close: at most a third of the word may differ, so `foo` suggests nothing.
 */
export function nearestName(word, candidates) {
  const lower = word.toLowerCase();
  let best;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const distance = editDistance(lower, candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best !== undefined && bestDistance <= Math.max(1, Math.floor(word.length / 3)) ? best : undefined;
}
