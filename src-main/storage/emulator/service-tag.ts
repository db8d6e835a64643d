import type { BucketRow } from './metadata-store';

const UPLOAD_HEADS = new Set(['mkblk', 'bput', 'mkfile']);
const LIST_PATHS = new Set(['/list', '/v2/list']);

/**
 * The service a request belongs to, for the `X-Log` header Kodo puts on every reply
 * (`UP`, `IO`, `RS`, `RSF`, `UC`, `API`): support reads it to see where a request went.
 */
export function serviceTag(url: string, host: string, bucketByDomain: (host: string) => BucketRow | undefined): string {
  const pathname = url.split('?')[0] ?? '/';
  const segments = pathname.split('/').filter(Boolean);
  const head = segments[0] ?? '';
  if (bucketByDomain(host) || head === 'download') return 'IO';
  // Multipart uploads (v2) live under /buckets/<bucket>/objects/…; /buckets alone lists buckets.
  if (pathname === '/' || UPLOAD_HEADS.has(head) || (head === 'buckets' && segments[2] === 'objects')) return 'UP';
  if (head === 'buckets') return 'UC';
  if (LIST_PATHS.has(pathname)) return 'RSF';
  if (
    pathname.startsWith('/v4/query') ||
    pathname.startsWith('/v3/query') ||
    pathname.startsWith('/v2/query') ||
    head === 'v3' ||
    head === 'v2' ||
    head === 'mkbucketv3'
  )
    return 'UC';
  if (head === 'status' || head === 'pfop' || head === 'cdnlogs' || head === 'sisyphus') return 'API';
  return 'RS';
}
