import { join } from 'node:path';

/**
 * Where a downloaded key lands: `<downloads>/<bucket>/<key relative to the folder it was chosen
 * in>`. Kodo keys may hold `..`, empty segments, or characters a file system refuses; none of
 * them may lead outside the downloads folder or fail the write, so each segment is made safe.
 */
export function localTarget(downloadsDir: string, bucket: string, prefix: string, key: string): string {
  const relative = key.startsWith(prefix) ? key.slice(prefix.length) : key;
  const segments = relative.split('/').map(safeSegment);
  return join(downloadsDir, safeSegment(bucket), ...segments);
}

export function safeSegment(segment: string): string {
  if (segment === '' || segment === '.' || segment === '..') return '_';
  // Control characters and the characters Windows refuses in names.
  // eslint-disable-next-line no-control-regex
  const cleaned = segment.replace(/[\u0000-\u001f<>:"\\|?*]/g, '_').replace(/[. ]+$/, (tail) => '_'.repeat(tail.length));
  return cleaned.length > 255 ? cleaned.slice(0, 255) : cleaned;
}

/**
 * The first free name of `path` (`a.jpg`, then `a (1).jpg`, `a (2).jpg`), where `taken` says
 * whether a name is used on disk or by another transfer in the queue.
 */
export function freeName(path: string, taken: (candidate: string) => boolean): string {
  if (!taken(path)) return path;
  const slash = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
  const dot = path.lastIndexOf('.');
  const hasExtension = dot > slash + 1;
  const stem = hasExtension ? path.slice(0, dot) : path;
  const extension = hasExtension ? path.slice(dot) : '';
  for (let n = 1; ; n++) {
    const candidate = `${stem} (${n})${extension}`;
    if (!taken(candidate)) return candidate;
  }
}
