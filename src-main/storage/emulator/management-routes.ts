import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Account } from './auth';
import type { AsyncFetch } from './async-fetch';
import type { Logger } from '../../platform/logger';
import type { BlobStore } from './blob-store';
import { BUCKET_HEADS, BUCKET_PATHS, handleBucketRequest } from './bucket-routes';
import { DOMAIN_HEADS, handleDomainRequest } from './bucket-domains';
import { handleBucketSettings, SETTINGS_HEADS } from './bucket-settings';
import { logList, prefetch, refresh, taskList, traffic, type CdnDeps } from './cdn-routes';
import { decodeEntry, urlsafeB64Decode } from './encoding';
import { parseForm, sendJson } from './http-kit';
import { KodoError } from './kodo-error';
import { decodeMarker, encodeMarker, listItem, listPage, walkListing } from './list-objects';
import { runBatch, runOperation } from './manage-operations';
import type { MetadataStore } from './metadata-store';
import { mimeFromName } from './mime-guess';
import { MODERATION_PATHS, moderationNotEnabled } from './moderation';
import type { ObjectService } from './object-service';
import type { PersistentFop } from './persistent-fop';

const RS_OPS: ReadonlySet<string> = new Set(['stat', 'delete', 'move', 'copy', 'chgm', 'chtype', 'chstatus', 'deleteAfterDays', 'lifecycle', 'restoreAr']);
const OTHER_HEADS: ReadonlySet<string> = new Set(['batch', 'list', 'fetch', 'prefetch', 'pfop', 'image', 'unimage', 'sisyphus']);
const OTHER_PATHS: ReadonlySet<string> = new Set(['/v2/list']);

/** Whether a path is one of the account-signed APIs (rs, rsf, io, uc, pfop, CDN). */
export function isManagementPath(pathname: string, head: string): boolean {
  return MODERATION_PATHS.has(pathname) || RS_OPS.has(head) || OTHER_HEADS.has(head) || SETTINGS_HEADS.has(head) || BUCKET_HEADS.has(head) || DOMAIN_HEADS.has(head) || OTHER_PATHS.has(pathname) || BUCKET_PATHS.has(pathname) || pathname.startsWith('/v2/tune/');
}

export interface ManagementDeps {
  db: MetadataStore;
  blobs: BlobStore;
  objects: ObjectService;
  pfop: PersistentFop;
  cdn: CdnDeps;
  clock: () => number;
  /** Workflow templates: name → processing commands. */
  workflows: ReadonlyMap<string, string>;
  asyncFetch: AsyncFetch;
  logger: Logger;
}

export interface ManagementRequest {
  req: IncomingMessage;
  res: ServerResponse;
  /** The account whose signature was verified. */
  account: Account;
  body: Buffer;
  pathname: string;
  segments: string[];
  query: URLSearchParams;
}

/** rs/rsf/io/uc/api/fusion requests, once the QBox or Qiniu signature has been checked. */
export async function handleManagement(deps: ManagementDeps, request: ManagementRequest): Promise<void> {
  const { res, account, body, pathname, segments, query } = request;
  const { db, objects, clock } = deps;
  const head = segments[0] ?? '';
  const method = request.req.method ?? 'GET';

  const settings = SETTINGS_HEADS.has(head)
    ? handleBucketSettings(db, objects, { segments, query, form: parseForm(body), body, owner: account.accessKey })
    : undefined;
  if (settings) {
    sendJson(res, 200, settings.body);
    return;
  }
  const domainReply = DOMAIN_HEADS.has(head) ? handleDomainRequest(db, objects, segments, account.accessKey) : undefined;
  if (domainReply) {
    sendJson(res, 200, domainReply.body);
    return;
  }
  if (MODERATION_PATHS.has(pathname)) throw moderationNotEnabled(pathname.split('/')[2] === 'video' ? 'video censor' : 'image censor');
  const bucketReply = BUCKET_HEADS.has(head) || BUCKET_PATHS.has(pathname) ? handleBucketRequest(db, objects, clock, { method, segments, pathname, query, body, owner: account.accessKey }) : undefined;
  if (bucketReply) {
    sendJson(res, 200, bucketReply.body);
    return;
  }
  if (RS_OPS.has(head)) {
    const result = await runOperation(objects, account, pathname);
    sendJson(res, 200, result.data);
    return;
  }
  switch (head) {
    case 'batch': {
      const ops = [...parseForm(body).getAll('op'), ...query.getAll('op')];
      const result = await runBatch(objects, account, ops, (op, error) => deps.logger.error('batch op failed inside the emulator', { op: op.split('/')[1], error }));
      sendJson(res, result.status, result.body);
      return;
    }
    case 'list': {
      const bucket = query.get('bucket') ?? '';
      objects.ownedBucket(bucket, account.accessKey);
      const limit = Number(query.get('limit') || 1000);
      if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw new KodoError(400, 'limit must be 1-1000');
      sendJson(res, 200, listPage(db, { bucket, prefix: query.get('prefix') ?? '', marker: query.get('marker') ?? '', limit, delimiter: query.get('delimiter') ?? '' }, clock()));
      return;
    }
    case 'fetch':
      return fetchFromSource(deps, request);
    case 'prefetch':
      return prefetchFromMirror(deps, request);
    case 'sisyphus': {
      if (segments[1] !== 'fetch' || segments.length > 2) break;
      if (method === 'GET') {
        sendJson(res, 200, deps.asyncFetch.status(query.get('id') ?? ''));
        return;
      }
      if (method !== 'POST') throw new KodoError(405, `/sisyphus/fetch does not take ${method}`);
      let json: unknown;
      try {
        json = JSON.parse(body.toString('utf8'));
      } catch {
        throw new KodoError(400, 'the body must be JSON: {"url": ..., "bucket": ...}');
      }
      if (typeof json !== 'object' || json === null || Array.isArray(json)) throw new KodoError(400, 'the body must be a JSON object');
      sendJson(res, 200, deps.asyncFetch.submit(account, json as Record<string, unknown>));
      return;
    }
    case 'pfop':
      return startPfop(deps, request);
    case 'image':
    case 'unimage': {
      const row = objects.ownedBucket(segments[1] ?? '', account.accessKey);
      let mirror: string | null = null;
      if (head === 'image') {
        mirror = urlsafeB64Decode(segments[3] ?? '').toString('utf8');
        if (segments[2] !== 'from' || !/^https?:\/\//.test(mirror)) throw new KodoError(400, 'image: expected /image/<bucket>/from/<urlsafeB64(http(s) origin)>');
      }
      db.upsertBucket({ ...row, mirror });
      sendJson(res, 200, undefined);
      return;
    }
  }
  switch (pathname) {
    case '/v2/list':
      return listV2(deps, res, account, query);
  }
  if (pathname.startsWith('/v2/tune/')) return tuneCdn(deps.cdn, request);
  throw new KodoError(404, `no such API: ${method} ${pathname}`);
}

/** rsf /v2/list: one JSON line per entry, streamed; limit 0 lists everything. */
function listV2(deps: ManagementDeps, res: ServerResponse, account: Account, query: URLSearchParams): void {
  const { db, objects, clock } = deps;
  const bucket = query.get('bucket') ?? '';
  objects.ownedBucket(bucket, account.accessKey);
  const limit = Number(query.get('limit') || 0);
  const marker = query.get('marker') ?? '';
  decodeMarker(marker); // 640 for a bad marker while an answer can still say so, not after a 200
  // One JSON object per line, not one JSON document: SDKs that parse application/json bodies would refuse it.
  res.writeHead(200, { 'Content-Type': 'application/x-ndjson' });
  let count = 0;
  for (const entry of walkListing(db, { bucket, prefix: query.get('prefix') ?? '', marker: query.get('marker') ?? '', limit: 0, delimiter: query.get('delimiter') ?? '' }, clock())) {
    res.write(JSON.stringify({ item: entry.item ? listItem(entry.item) : null, marker: encodeMarker(entry.after), dir: entry.dir ?? '' }) + '\n');
    count += 1;
    if (limit > 0 && count >= limit) break;
  }
  res.end();
}

/** io /fetch: the object copied from a URL into the bucket, answered with what was stored. */
async function fetchFromSource(deps: ManagementDeps, { res, account, segments }: ManagementRequest): Promise<void> {
  const { blobs, objects } = deps;
  const source = urlsafeB64Decode(segments[1] ?? '').toString('utf8');
  const { bucket, key } = decodeEntry(segments[3] ?? '');
  objects.ownedBucket(bucket, account.accessKey);
  const response = await fetch(source, { signal: AbortSignal.timeout(60_000) }).catch((e: Error) => {
    throw new KodoError(478, `fetch from source failed: ${e.message}`);
  });
  if (!response.ok || !response.body) throw new KodoError(478, `source replied ${response.status}`);
  const staged = await blobs.stage(response.body as unknown as AsyncIterable<Buffer>);
  const mime = response.headers.get('content-type')?.split(';')[0] || mimeFromName(key ?? source) || 'application/octet-stream';
  const row = await objects.commit({ bucket, key: key ?? staged.etag, staged, mime, overwrite: true });
  sendJson(res, 200, { hash: row.hash, fsize: row.fsize, mimeType: row.mime, key: row.key });
}

/** io /prefetch: the object fetched again from the bucket's mirror source. */
async function prefetchFromMirror(deps: ManagementDeps, { res, account, segments }: ManagementRequest): Promise<void> {
  const { blobs, objects } = deps;
  const { bucket, key } = decodeEntry(segments[1] ?? '');
  const row = objects.ownedBucket(bucket, account.accessKey);
  if (!row.mirror) throw new KodoError(400, 'bucket has no mirror source');
  if (key === undefined) throw new KodoError(400, 'entry has no key');
  const response = await fetch(`${row.mirror.replace(/\/$/, '')}/${encodeURI(key)}`, { signal: AbortSignal.timeout(60_000) }).catch(() => undefined);
  if (!response?.ok || !response.body) throw new KodoError(478, `mirror source did not serve ${key}`);
  const staged = await blobs.stage(response.body as unknown as AsyncIterable<Buffer>);
  const mime = response.headers.get('content-type')?.split(';')[0] || mimeFromName(key) || 'application/octet-stream';
  await objects.commit({ bucket, key, staged, mime, overwrite: true });
  sendJson(res, 200, {});
}

/** api /pfop: persistent processing of one object, by commands or a workflow template. */
async function startPfop(deps: ManagementDeps, { res, account, body }: ManagementRequest): Promise<void> {
  const { objects, pfop } = deps;
  const form = parseForm(body);
  const bucket = form.get('bucket') ?? '';
  objects.ownedBucket(bucket, account.accessKey);
  const key = form.get('key') ?? '';
  objects.stat(bucket, key);
  const workflow = form.get('workflowTemplateID');
  if (form.get('fops') && workflow) throw new KodoError(400, 'fops and workflowTemplateID are exclusive');
  if (workflow && !deps.workflows.has(workflow)) throw new KodoError(400, `workflowTemplateID: no workflow template named ${workflow}`);
  const fops = workflow ? deps.workflows.get(workflow)! : (form.get('fops') ?? '');
  if (!fops) throw new KodoError(400, 'fops or workflowTemplateID is required');
  const type = form.has('type') ? Number(form.get('type')) : 0;
  if (type !== 0 && type !== 1) throw new KodoError(400, 'type must be 0 or 1');
  if (type === 1 && form.get('pipeline')) throw new KodoError(400, 'pipeline is not allowed when type is 1');
  const id = pfop.start({
    owner: account.accessKey,
    bucket,
    key,
    fops,
    workflow: workflow ?? undefined,
    notifyURL: form.get('notifyURL') ?? undefined,
    pipeline: form.get('pipeline') ?? undefined,
    type,
    force: form.get('force') === '1' || form.get('force') === 'true',
  });
  sendJson(res, 200, { persistentId: id });
}

/** fusion /v2/tune/*: the CDN API (refresh, prefetch, their task lists, traffic, log lists). */
function tuneCdn(cdnDeps: CdnDeps, { req, res, account, body, pathname }: ManagementRequest): void {
  let json: Record<string, unknown>;
  try {
    json = JSON.parse(body.toString('utf8') || '{}') as Record<string, unknown>;
  } catch {
    throw new KodoError(400, 'CDN request body is not JSON');
  }
  const name = pathname.slice('/v2/tune/'.length);
  const reply =
    name === 'refresh' ? refresh(cdnDeps, account, json)
    : name === 'refresh/list' ? taskList(cdnDeps, account, 'refresh', json)
    : name === 'prefetch/list' ? taskList(cdnDeps, account, 'prefetch', json)
    : name === 'prefetch' ? prefetch(cdnDeps, account, json)
    : name === 'flux' || name === 'bandwidth' ? traffic(cdnDeps, name, json)
    : name === 'log/list' ? logList(cdnDeps, account, json, req)
    : undefined;
  if (!reply) throw new KodoError(404, `no such CDN API ${name}`);
  sendJson(res, reply.status, reply.body);
}
