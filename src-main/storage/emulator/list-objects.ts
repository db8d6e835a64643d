import { KodoError } from './kodo-error';
import type { ListedRow, MetadataStore } from './metadata-store';
import { urlsafeB64Decode, urlsafeB64Encode } from './encoding';

export interface ListRequest {
  bucket: string;
  prefix: string;
  marker: string;
  limit: number;
  delimiter: string;
}

export interface ListEntry {
  item?: ListedRow;
  dir?: string;
  /** The key a listing that stops after this entry continues after (encodeMarker makes it a marker). */
  after: string;
}

// Past every key that starts with a common prefix (U+10FFFF sorts last in UTF-8 byte order).
const AFTER_ALL = '\u{10FFFF}';

export function encodeMarker(key: string): string {
  return urlsafeB64Encode(JSON.stringify({ c: 0, k: key }));
}

export function decodeMarker(marker: string): string {
  if (marker === '') return '';
  try {
    const parsed = JSON.parse(urlsafeB64Decode(marker).toString('utf8')) as { k?: unknown };
    if (typeof parsed.k !== 'string') throw new Error('no k');
    return parsed.k;
  } catch {
    throw new KodoError(640, 'invalid marker');
  }
}

/**
 * Walks keys in order, folding keys that share `prefix + ... + delimiter` into one dir entry.
 * Rows are read `batch` at a time: a page of `limit` entries asks for limit + 1, so that telling
 * whether more follow costs no second query.
 */
export function* walkListing(db: MetadataStore, request: ListRequest, expiredBefore: number, batch = 1000): Generator<ListEntry> {
  let after = decodeMarker(request.marker);
  const page = batch;
  for (;;) {
    const rows = db.list({ bucket: request.bucket, prefix: request.prefix, after, limit: page });
    if (rows.length === 0) return;
    let jumped = false;
    for (const row of rows) {
      after = row.key;
      if (row.expire_at !== null && row.expire_at <= expiredBefore) continue;
      if (request.delimiter) {
        const rest = row.key.slice(request.prefix.length);
        const at = rest.indexOf(request.delimiter);
        if (at >= 0) {
          const dir = request.prefix + rest.slice(0, at + request.delimiter.length);
          after = dir + AFTER_ALL;
          yield { dir, after };
          jumped = true;
          break;
        }
      }
      yield { item: row, after: row.key };
    }
    if (!jumped && rows.length < page) return;
  }
}

export function listItem(row: ListedRow): Record<string, unknown> {
  const item: Record<string, unknown> = {
    key: row.key,
    hash: row.hash,
    fsize: row.fsize,
    mimeType: row.mime,
    putTime: row.put_time,
    type: row.type,
    status: row.status,
  };
  if (row.md5) item['md5'] = row.md5;
  if (row.end_user) item['endUser'] = row.end_user;
  return item;
}

/** rsf /list: `{marker?, commonPrefixes?, items}`; limit counts items and prefixes. */
export function listPage(db: MetadataStore, request: ListRequest, now: number): Record<string, unknown> {
  const items: Record<string, unknown>[] = [];
  const dirs: string[] = [];
  let after = '';
  let count = 0;
  let more = false;
  for (const entry of walkListing(db, request, now, request.limit + 1)) {
    if (count === request.limit) {
      more = true;
      break;
    }
    if (entry.item) items.push(listItem(entry.item));
    else if (entry.dir) dirs.push(entry.dir);
    after = entry.after;
    count += 1;
  }
  const body: Record<string, unknown> = { items };
  if (dirs.length > 0) body['commonPrefixes'] = dirs;
  // Only the page's last marker is ever sent: encoded once, not per row.
  if (more) body['marker'] = encodeMarker(after);
  return body;
}
