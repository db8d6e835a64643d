import type { ConflictChoice } from '@shared/contract/transfers';

/**
 * The user's answers to "this name is taken" for one batch of uploads, asked one conflict at a
 * time, or once for all that are left ("apply to all").
 */
export interface ConflictRound {
  /** Relative paths (under the folder uploaded into) that the service already holds. */
  conflicts: readonly string[];
  decisions: ReadonlyMap<string, ConflictChoice>;
}

export function startConflicts(conflicts: readonly string[]): ConflictRound {
  return { conflicts, decisions: new Map() };
}

/** The conflict asked about now, or undefined once every one has an answer. */
export function currentConflict(round: ConflictRound): string | undefined {
  return round.conflicts.find((path) => !round.decisions.has(path));
}

/** Conflicts not answered yet, the current one included: "apply to all N conflicts". */
export function conflictsLeft(round: ConflictRound): number {
  return round.conflicts.length - round.decisions.size;
}

export function decide(round: ConflictRound, choice: ConflictChoice, applyToAll: boolean): ConflictRound {
  const decisions = new Map(round.decisions);
  for (const path of round.conflicts) {
    if (decisions.has(path)) continue;
    decisions.set(path, choice);
    if (!applyToAll) break;
  }
  return { conflicts: round.conflicts, decisions };
}

export interface PlannedUpload<T> {
  file: T;
  relativePath: string;
}

/**
 * What goes up once every conflict is answered: skipped files are left out (and named), the
 * others carry their answer for main (`overwrite`, or `keep-both` to take a free numbered name).
 */
export function applyDecisions<T>(
  files: ReadonlyArray<PlannedUpload<T>>,
  round: ConflictRound,
): { files: Array<PlannedUpload<T> & { onConflict?: 'overwrite' | 'keep-both' }>; skipped: string[] } {
  const skipped: string[] = [];
  const kept: Array<PlannedUpload<T> & { onConflict?: 'overwrite' | 'keep-both' }> = [];
  for (const planned of files) {
    const choice = round.decisions.get(planned.relativePath);
    if (choice === 'skip') skipped.push(planned.relativePath);
    else kept.push(choice ? { ...planned, onConflict: choice } : planned);
  }
  return { files: kept, skipped };
}
