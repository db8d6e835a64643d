/** What the console needs of a chosen or dropped file (a browser File has all of it). */
export interface ChosenFile {
  name: string;
  size: number;
  /** Set by the folder picker: `trip/day1/a.jpg`. */
  webkitRelativePath?: string;
  /** Set by react-dropzone for dropped folders: `/trip/day1/a.jpg` or `./trip/day1/a.jpg`. */
  path?: string;
}

/**
 * The path of each file under the folder it is uploaded into: a dropped or picked folder keeps
 * its own name and sub-folders, a loose file is its name. Returns the files in the order given.
 */
export function relativePathOf(file: ChosenFile): string {
  const raw = file.webkitRelativePath || file.path || file.name;
  const cleaned = raw
    .replace(/\\/g, '/')
    .split('/')
    .filter((part) => part !== '' && part !== '.')
    .join('/');
  return cleaned || file.name;
}

/** Files that would land on the same key: the second of each is left out, and named. */
export function uploadPlan<T extends ChosenFile>(
  files: readonly T[],
): { files: Array<{ file: T; relativePath: string }>; duplicates: string[] } {
  const seen = new Set<string>();
  const duplicates: string[] = [];
  const planned: Array<{ file: T; relativePath: string }> = [];
  for (const file of files) {
    const relativePath = relativePathOf(file);
    if (seen.has(relativePath)) duplicates.push(relativePath);
    else {
      seen.add(relativePath);
      planned.push({ file, relativePath });
    }
  }
  return { files: planned, duplicates };
}
