/**
 * Back and forward through folders, as a file manager has them. The route is the source of
 * truth: every route change is `visit`ed, and a visit to the entry just behind or ahead is
 * read as going back or forward (so the browser's own buttons keep the list straight).
 */
export interface FolderHistory {
  entries: string[];
  index: number;
}

export const emptyHistory: FolderHistory = { entries: [], index: -1 };

export function visit(history: FolderHistory, address: string): FolderHistory {
  const { entries, index } = history;
  if (entries[index] === address) return history;
  if (index > 0 && entries[index - 1] === address) return { entries, index: index - 1 };
  if (entries[index + 1] === address) return { entries, index: index + 1 };
  const kept = entries.slice(Math.max(0, index + 1 - 99), index + 1);
  return { entries: [...kept, address], index: kept.length };
}

export const backOf = (history: FolderHistory): string | undefined => history.entries[history.index - 1];
export const forwardOf = (history: FolderHistory): string | undefined => history.entries[history.index + 1];
