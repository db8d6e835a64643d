/** Where the browser is inside an account: a bucket and a folder prefix (`''` or ending in `/`). */
export interface FolderLocation {
  bucket: string;
  prefix: string;
}

const BUCKET = /^[a-zA-Z0-9_-]{1,63}$/;

/** `kodo://photos/2024/jan/`: what the address bar shows. */
export function printAddress({ bucket, prefix }: FolderLocation): string {
  return `kodo://${bucket}/${prefix}`;
}

/**
 * What the user typed into the address bar: `kodo://photos/2024/`, `photos/2024` or `/photos`.
 * A path names a folder, so a missing trailing `/` is added.
 */
export function parseAddress(text: string): FolderLocation | { error: string } {
  const trimmed = text
    .trim()
    .replace(/^kodo:\/\//i, '')
    .replace(/^\/+/, '');
  if (trimmed === '') return { error: 'type a bucket name, e.g. kodo://photos/' };
  const slash = trimmed.indexOf('/');
  const bucket = slash < 0 ? trimmed : trimmed.slice(0, slash);
  if (!BUCKET.test(bucket)) return { error: `“${bucket}” is not a bucket name: letters, digits, - and _ (1-63)` };
  const rest = slash < 0 ? '' : trimmed.slice(slash + 1);
  return { bucket, prefix: rest === '' || rest.endsWith('/') ? rest : `${rest}/` };
}

/** The folder above (`a/b/` → `a/`), or undefined at the bucket root. */
export function parentFolder(prefix: string): string | undefined {
  if (prefix === '') return undefined;
  const trimmed = prefix.slice(0, -1);
  return trimmed.slice(0, trimmed.lastIndexOf('/') + 1);
}

/** The last part of a key or folder, as a row shows it (`a/b/` → `b`, `a/c.txt` → `c.txt`). */
export function nameOf(key: string): string {
  const trimmed = key.endsWith('/') ? key.slice(0, -1) : key;
  return trimmed.slice(trimmed.lastIndexOf('/') + 1);
}

/** The folders from the root to `prefix`, for the breadcrumbs: `a/b/` → ['a/', 'a/b/']. */
export function foldersTo(prefix: string): string[] {
  const parts = prefix.split('/').slice(0, -1);
  return parts.map((_, i) => `${parts.slice(0, i + 1).join('/')}/`);
}
