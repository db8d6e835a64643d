import type { IncomingMessage, ServerResponse } from 'node:http';
import { createHash } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import type { Logger } from '../../platform/logger';
import { verifyDownloadToken, type AccountLookup } from './auth';
import { safeEqual } from '../../platform/safe-equal';
import type { BlobStore } from './blob-store';
import { sendError, sendRaw } from './http-kit';
import { KodoError } from './kodo-error';
import type { MediaOutput } from './media-ops';
import type { BucketRow, MetadataStore, ObjectRow } from './metadata-store';
import type { ObjectService } from './object-service';
import { runCommand } from './persistent-fop';
import { IMAGE_COMMANDS } from './image-ops';
import { MEDIA_COMMANDS } from './media-ops';
import { MODERATION_COMMANDS } from './moderation';
import { mimeFromName } from './mime-guess';
import type { SettingValue } from './setting-value';

/**
 * A header name as Kodo's Go servers write it (net/http's canonical form): each letter that
 * starts the name or follows a `-` upper case, the rest lower case (`x-qn-meta-m1` → `X-Qn-Meta-M1`).
 */
function canonicalHeaderName(name: string): string {
  return name.toLowerCase().replace(/(^|-)([a-z])/g, (_match, dash: string, letter: string) => dash + letter.toUpperCase());
}

export interface DownloadDeps {
  db: MetadataStore;
  blobs: BlobStore;
  objects: ObjectService;
  accounts: AccountLookup;
  clock: () => number;
  logger: Logger;
}

export interface DownloadTarget {
  bucket: BucketRow;
  /** The key as it appears (percent-encoded) in the path. */
  rawKey: string;
  /** The domain the download log files it under. */
  domain: string;
}

/** `bytes=a-b`, `bytes=a-`, `bytes=-n` → inclusive range, or 'invalid'. */
export function parseRange(header: string | undefined, size: number): { start: number; end: number } | 'invalid' | undefined {
  if (!header) return undefined;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return 'invalid';
  let start: number;
  let end: number;
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0) return 'invalid';
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  }
  if (start > end || start >= size) return 'invalid';
  return { start, end };
}

/** Timestamp anti-leech: `sign = md5(key + path + t)`, t = hex deadline in seconds. */
function checkAntiLeech(key: string, path: string, query: URLSearchParams, now: number): void {
  const sign = query.get('sign');
  const t = query.get('t');
  if (!sign || !t) throw new KodoError(403, 'anti-leech: sign and t are required');
  const expected = createHash('md5')
    .update(key + path + t)
    .digest('hex');
  if (!safeEqual(expected, sign.toLowerCase())) throw new KodoError(403, 'anti-leech: bad sign');
  if (parseInt(t, 16) * 1000 < now) throw new KodoError(403, 'anti-leech: link expired');
}

/** `*.example.com` → a case-insensitive whole-string pattern. */
function wildcard(pattern: string): RegExp {
  return new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`, 'i');
}

/** Referer anti-leech as putReferAntiLeech sets it: mode 1 allow list, 2 deny list, `*` wildcards. */
function checkReferer(setting: SettingValue, refererHeader: string | undefined): void {
  const mode = Number(setting['mode'] ?? 0);
  if (mode !== 1 && mode !== 2) return;
  if (!refererHeader) {
    if (Number(setting['norefer'] ?? 0) === 1 || mode === 2) return;
    throw new KodoError(403, 'referer anti-leech: a Referer is required');
  }
  let host: string;
  try {
    host = new URL(refererHeader).hostname;
  } catch {
    throw new KodoError(403, 'referer anti-leech: bad Referer');
  }
  const patterns = String(setting['pattern'] ?? '')
    .split(';')
    .map((p) => p.trim())
    .filter(Boolean);
  const hit = patterns.some((p) => wildcard(p).test(host));
  if ((mode === 1 && !hit) || (mode === 2 && hit)) throw new KodoError(403, 'referer anti-leech: this Referer is not allowed');
}

interface CorsRule {
  allowed_origin?: string[];
  allowed_method?: string[];
  allowed_header?: string[];
  exposed_header?: string[];
  max_age?: number;
}

/** The CORS rules set by putCorsRules, applied to downloads. */
function corsHeaders(rules: CorsRule[] | undefined, origin: string | undefined, method: string): Record<string, string> {
  if (!rules || !origin) return {};
  const match = (pattern: string, value: string) => wildcard(pattern).test(value);
  const rule = rules.find(
    (r) =>
      (r.allowed_origin ?? []).some((o) => match(o, origin)) &&
      (r.allowed_method ?? []).some((m) => m.toUpperCase() === method.toUpperCase()),
  );
  if (!rule) return {};
  const out: Record<string, string> = { 'Access-Control-Allow-Origin': origin, Vary: 'Origin' };
  if (rule.exposed_header?.length) out['Access-Control-Expose-Headers'] = rule.exposed_header.join(', ');
  if (rule.max_age) out['Access-Control-Max-Age'] = String(rule.max_age);
  return out;
}

/**
 * The processing asked for on a download URL: a first query part that is not `name=value`
 * (`?imageView2/1/w/50|imageInfo`). A chain or a command with arguments the emulator does not
 * know answers 400, as on Kodo, rather than the original file; a lone word that names no
 * command (`?v2`, `?qiniu`, a cache buster) is an ordinary query parameter.
 */
function fopOf(query: string): string[] | undefined {
  const first = query.split('&')[0] ?? '';
  if (first === '' || first.includes('=')) return undefined;
  if (/^[\w.-]+$/.test(first) && !IMAGE_COMMANDS.has(first) && !MEDIA_COMMANDS.has(first) && !MODERATION_COMMANDS.has(first))
    return undefined;
  let decoded: string;
  try {
    decoded = decodeURIComponent(first);
  } catch {
    throw new KodoError(400, 'bad processing command encoding');
  }
  return decoded
    .split('|')
    .map((step) => step.trim())
    .filter(Boolean);
}

/** Runs a chain: each command gets the previous one's output, the first the stored file. */
async function runChain(path: string, steps: string[]): Promise<MediaOutput> {
  let input: Buffer | string = path;
  let output: MediaOutput | undefined;
  for (const step of steps) {
    output = await runCommand(input, step);
    input = output.body;
  }
  if (!output) throw new KodoError(400, 'no processing command');
  return output;
}

async function fromMirror(deps: DownloadDeps, bucket: BucketRow, key: string): Promise<ObjectRow | undefined> {
  if (!bucket.mirror) return undefined;
  const response = await fetch(`${bucket.mirror.replace(/\/$/, '')}/${encodeURI(key)}`, { signal: AbortSignal.timeout(30_000) }).catch(
    () => undefined,
  );
  if (!response || !response.ok || !response.body) return undefined;
  const staged = await deps.blobs.stage(response.body as unknown as AsyncIterable<Buffer>);
  const mime = response.headers.get('content-type') ?? mimeFromName(key) ?? 'application/octet-stream';
  return deps.objects.commit({ bucket: bucket.name, key, staged, mime, overwrite: true });
}

/** Serves one download: auth (private token, anti-leech), fops as `?command`, Range, HEAD. */
export async function handleDownload(deps: DownloadDeps, req: IncomingMessage, res: ServerResponse, target: DownloadTarget): Promise<void> {
  const url = req.url ?? '/';
  const queryAt = url.indexOf('?');
  const query = queryAt >= 0 ? url.slice(queryAt + 1) : '';
  const params = new URLSearchParams(query);
  let bytes = 0;
  let status = 200;
  try {
    let key: string;
    try {
      key = decodeURIComponent(target.rawKey);
    } catch {
      throw new KodoError(400, 'bad key encoding');
    }
    const now = deps.clock();
    if (target.bucket.private) {
      const host = req.headers.host ?? '';
      const candidates = [`http://${host}${url}`, `https://${host}${url}`];
      let lastError: unknown;
      let ok = false;
      for (const candidate of candidates) {
        try {
          verifyDownloadToken(candidate, deps.accounts, target.bucket.owner, now);
          ok = true;
          break;
        } catch (error) {
          lastError = error;
          if (error instanceof KodoError && error.message === 'token out of date') break;
        }
      }
      if (!ok) throw lastError;
    }
    if (target.bucket.anti_leech_key) {
      checkAntiLeech(target.bucket.anti_leech_key, queryAt >= 0 ? url.slice(0, queryAt) : url, params, now);
    }
    const referer = deps.db.setting<SettingValue>(target.bucket.name, 'referer', 'default');
    if (referer) checkReferer(referer, req.headers.referer);
    const cors = corsHeaders(deps.db.setting<CorsRule[]>(target.bucket.name, 'cors', 'default'), req.headers.origin, req.method ?? 'GET');
    for (const [name, value] of Object.entries(cors)) res.setHeader(name, value);
    let row = deps.objects.find(target.bucket.name, key);
    if (!row) row = await fromMirror(deps, target.bucket, key);
    if (!row) throw new KodoError(404, 'Document not found');
    const fop = fopOf(query);
    if (fop) {
      const output = await runChain(deps.blobs.blobPath(row.blob), fop);
      bytes = output.body.length;
      sendRaw(res, 200, output.body, output.contentType);
      return;
    }
    const headers: Record<string, string | number> = {
      'Content-Type': row.mime,
      'Accept-Ranges': 'bytes',
      ETag: `"${row.hash}"`,
      'Last-Modified': new Date(Math.floor(row.put_time / 10_000)).toUTCString(),
      'X-Qiniu-Hash': row.hash,
    };
    const maxAge = deps.db.setting<number>(target.bucket.name, 'maxAge', 'default');
    if (maxAge !== undefined && maxAge > 0) headers['Cache-Control'] = `public, max-age=${maxAge}`;
    for (const [name, value] of Object.entries(row.meta ? (JSON.parse(row.meta) as Record<string, string>) : {})) {
      headers[canonicalHeaderName(name)] = encodeURIComponent(value);
    }
    const attname = params.get('attname');
    if (attname !== null)
      headers['Content-Disposition'] = `attachment; filename*=UTF-8''${encodeURIComponent(attname || key.split('/').pop()!)}`;
    const range = parseRange(req.headers.range, row.fsize);
    if (range === 'invalid') {
      status = 416;
      res.writeHead(416, { 'Content-Range': `bytes */${row.fsize}`, 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ error: 'requested range not satisfiable' }));
      return;
    }
    if (range) {
      status = 206;
      bytes = range.end - range.start + 1;
      res.writeHead(206, { ...headers, 'Content-Length': bytes, 'Content-Range': `bytes ${range.start}-${range.end}/${row.fsize}` });
    } else {
      bytes = row.fsize;
      res.writeHead(200, { ...headers, 'Content-Length': row.fsize });
    }
    if (req.method === 'HEAD' || bytes === 0) {
      res.end();
      return;
    }
    try {
      await pipeline(deps.blobs.read(row.blob, range), res);
    } catch (error) {
      // The client hung up (often right after the last byte): nothing to answer any more.
      if ((error as NodeJS.ErrnoException).code !== 'ERR_STREAM_PREMATURE_CLOSE') throw error;
    }
  } catch (error) {
    if (error instanceof KodoError) {
      status = error.status;
      sendError(res, error.status, error.message);
    } else throw error;
  } finally {
    deps.db.logDownload({
      at: deps.clock(),
      domain: target.domain,
      path: url.split('?')[0]!,
      status,
      bytes: req.method === 'HEAD' ? 0 : bytes,
    });
  }
}
