import { extname } from 'node:path';

const BY_EXTENSION: Record<string, string> = {
  '.txt': 'text/plain',
  '.html': 'text/html',
  '.htm': 'text/html',
  '.css': 'text/css',
  '.js': 'application/javascript',
  '.json': 'application/json',
  '.xml': 'application/xml',
  '.csv': 'text/csv',
  '.md': 'text/markdown',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.svg': 'image/svg+xml',
  '.bmp': 'image/bmp',
  '.ico': 'image/x-icon',
  '.mp4': 'video/mp4',
  '.m3u8': 'application/x-mpegurl',
  '.ts': 'video/mp2t',
  '.webm': 'video/webm',
  '.mov': 'video/quicktime',
  '.mp3': 'audio/mpeg',
  '.aac': 'audio/aac',
  '.wav': 'audio/wav',
  '.pdf': 'application/pdf',
  '.zip': 'application/zip',
  '.gz': 'application/gzip',
};

export function mimeFromName(name: string | undefined): string | undefined {
  return name ? BY_EXTENSION[extname(name).toLowerCase()] : undefined;
}

/** detectMime: a few magic numbers, enough for the files a console shows. */
export function mimeFromBytes(head: Buffer): string | undefined {
  const starts = (...bytes: number[]) => bytes.every((b, i) => head[i] === b);
  if (starts(0x89, 0x50, 0x4e, 0x47)) return 'image/png';
  if (starts(0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (starts(0x47, 0x49, 0x46, 0x38)) return 'image/gif';
  if (starts(0x25, 0x50, 0x44, 0x46)) return 'application/pdf';
  if (starts(0x50, 0x4b, 0x03, 0x04)) return 'application/zip';
  if (starts(0x1f, 0x8b)) return 'application/gzip';
  if (head.length >= 12 && head.subarray(4, 8).toString('latin1') === 'ftyp') return 'video/mp4';
  if (starts(0x52, 0x49, 0x46, 0x46) && head.subarray(8, 12).toString('latin1') === 'WEBP') return 'image/webp';
  if (starts(0x1a, 0x45, 0xdf, 0xa3)) return 'video/webm';
  if (starts(0x49, 0x44, 0x33)) return 'audio/mpeg';
  const text = head.toString('utf8');
  // Text: decodes as UTF-8 (a cut sequence at the end is fine) with no control characters.
  const body = text.replace(/\uFFFD{1,3}$/, '');
  const control = [...body].some((c) => {
    const code = c.charCodeAt(0);
    return (code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d && code !== 0x0c) || code === 0x7f;
  });
  if (head.length === 0 || body.includes('\uFFFD') || control) return undefined;
  return /^\s*[[{]/.test(text) ? 'application/json' : 'text/plain';
  return undefined;
}

/** mimeLimit: `image/*;video/mp4` allows, `!application/json;text/plain` forbids. */
export function mimeAllowed(mime: string, limit: string): boolean {
  const negate = limit.startsWith('!');
  const patterns = (negate ? limit.slice(1) : limit)
    .split(';')
    .map((p) => p.trim())
    .filter(Boolean);
  const hit = patterns.some((p) => (p.endsWith('/*') ? mime.startsWith(p.slice(0, -1)) : mime === p));
  return negate ? !hit : hit;
}
