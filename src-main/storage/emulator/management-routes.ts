import type { ServerResponse } from 'node:http';
import type { Account } from './auth';
import type { AsyncFetch } from './async-fetch';
import type { Logger } from '../../platform/logger';
import type { BlobStore } from './blob-store';
import { bucketRoutes } from './bucket-routes';
import { domainRoutes } from './bucket-domains';
import { bucketSettingsRoutes } from './bucket-settings';
import { logList, prefetch, refresh, taskList, traffic, type CdnDeps } from './cdn-routes';
import { decodeEntry, urlsafeB64Decode } from './encoding';
import { parseForm, sendJson } from './http-kit';
import { KodoError } from './kodo-error';
import type { ManagementRequest, ManagementRoute } from './kodo-route';
import { decodeMarker, encodeMarker, listItem, listPage, walkListing } from './list-objects';
import { runBatch, runOperation } from './manage-operations';
import type { MetadataStore } from './metadata-store';
import { mimeFromName } from './mime-guess';
import { MODERATION_PATHS, moderationNotEnabled } from './moderation';
import type { ObjectService } from './object-service';
import type { PersistentFop } from './persistent-fop';

/** The rs operations one path names, as `/batch` runs them too (`manage-operations.ts` reads the path). */
const RS_OPS = ['stat', 'delete', 'chgm', 'chtype', 'chstatus', 'deleteAfterDays', 'lifecycle', 'restoreAr'] as const;
/** The rs operations from one object to another. */
const RS_TRANSFERS = ['move', 'copy'] as const;

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

/**
 * rs/rsf/io/uc/api/fusion: the account-signed APIs, as one table. Kodo puts an operation's
 * arguments in the path: an entry (urlsafe base64 of `bucket:key`) and then name/value pairs
 * (`/move/<src>/<dst>/force/true`, `/chgm/<entry>/mime/<b64>/cond/<b64>`), read by the operation.
 */
export function managementRoutes(deps: ManagementDeps): ManagementRoute[] {
  const { db, objects, clock } = deps;
  const runOne: ManagementRoute['handler'] = async ({ res, account, pathname }) =>
    sendJson(res, 200, (await runOperation(objects, account, pathname)).data);
  return [
    ...bucketSettingsRoutes(db, objects),
    ...domainRoutes(db, objects),
    ...bucketRoutes(db, objects, clock),
    ...[...MODERATION_PATHS].map((path): ManagementRoute => ({
      method: '*',
      path,
      handler: () => {
        throw moderationNotEnabled(path.split('/')[2] === 'video' ? 'video censor' : 'image censor');
      },
    })),
    ...RS_OPS.map((op): ManagementRoute => ({ method: '*', path: `/${op}/:entry/*`, handler: runOne })),
    ...RS_TRANSFERS.map((op): ManagementRoute => ({ method: '*', path: `/${op}/:src/:dest/*`, handler: runOne })),
    {
      method: '*',
      path: '/batch',
      handler: async ({ res, account, body, query }) => {
        const ops = [...parseForm(body).getAll('op'), ...query.getAll('op')];
        const result = await runBatch(objects, account, ops, (op, error) =>
          deps.logger.error('batch op failed inside the emulator', { op: op.split('/')[1], error }),
        );
        sendJson(res, result.status, result.body);
      },
    },
    {
      method: '*',
      path: '/list',
      handler: ({ res, account, query }) => {
        const bucket = query.get('bucket') ?? '';
        objects.ownedBucket(bucket, account.accessKey);
        const limit = Number(query.get('limit') || 1000);
        if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw new KodoError(400, 'limit must be 1-1000');
        sendJson(
          res,
          200,
          listPage(
            db,
            {
              bucket,
              prefix: query.get('prefix') ?? '',
              marker: query.get('marker') ?? '',
              limit,
              delimiter: query.get('delimiter') ?? '',
            },
            clock(),
          ),
        );
      },
    },
    { method: '*', path: '/v2/list', handler: ({ res, account, query }) => listV2(deps, res, account, query) },
    { method: '*', path: '/fetch/:source/to/:entry', handler: (request) => fetchFromSource(deps, request) },
    { method: '*', path: '/prefetch/:entry', handler: (request) => prefetchFromMirror(deps, request) },
    {
      method: 'GET',
      path: '/sisyphus/fetch',
      handler: ({ res, query }) => sendJson(res, 200, deps.asyncFetch.status(query.get('id') ?? '')),
    },
    { method: 'POST', path: '/sisyphus/fetch', handler: (request) => submitFetch(deps, request) },
    {
      method: '*',
      path: '/sisyphus/fetch',
      handler: ({ req }) => {
        throw new KodoError(405, `/sisyphus/fetch does not take ${req.method ?? 'GET'}`);
      },
    },
    { method: '*', path: '/pfop', handler: (request) => startPfop(deps, request) },
    ...mirrorRoutes(deps),
    ...cdnRoutes(deps.cdn),
  ];
}

const IMAGE_SHAPE = 'image: expected /image/<bucket>/from/<urlsafeB64(http(s) origin)>';

/** `/image/<bucket>/from/<urlsafeB64(origin)>[/host/<b64>]` sets a bucket's mirror source; `/unimage/<bucket>` removes it. */
function mirrorRoutes({ db, objects }: ManagementDeps): ManagementRoute[] {
  return [
    {
      method: '*',
      path: '/image/:bucket/from/:source/*',
      handler: ({ res, account, params }) => {
        const row = objects.ownedBucket(params.bucket!, account.accessKey);
        const mirror = urlsafeB64Decode(params.source!).toString('utf8');
        if (!/^https?:\/\//.test(mirror)) throw new KodoError(400, IMAGE_SHAPE);
        db.upsertBucket({ ...row, mirror });
        sendJson(res, 200, undefined);
      },
    },
    {
      method: '*',
      path: '/image/*',
      handler: () => {
        throw new KodoError(400, IMAGE_SHAPE);
      },
    },
    {
      method: '*',
      path: '/unimage/:bucket',
      handler: ({ res, account, params }) => {
        db.upsertBucket({ ...objects.ownedBucket(params.bucket!, account.accessKey), mirror: null });
        sendJson(res, 200, undefined);
      },
    },
  ];
}

/** sisyphus: an asynchronous fetch job from a JSON body, answered with its id at once. */
function submitFetch(deps: ManagementDeps, { res, account, body }: ManagementRequest): void {
  let json: unknown;
  try {
    json = JSON.parse(body.toString('utf8'));
  } catch {
    throw new KodoError(400, 'the body must be JSON: {"url": ..., "bucket": ...}');
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw new KodoError(400, 'the body must be a JSON object');
  sendJson(res, 200, deps.asyncFetch.submit(account, json as Record<string, unknown>));
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
  for (const entry of walkListing(
    db,
    { bucket, prefix: query.get('prefix') ?? '', marker: query.get('marker') ?? '', limit: 0, delimiter: query.get('delimiter') ?? '' },
    clock(),
  )) {
    res.write(
      JSON.stringify({ item: entry.item ? listItem(entry.item) : null, marker: encodeMarker(entry.after), dir: entry.dir ?? '' }) + '\n',
    );
    count += 1;
    if (limit > 0 && count >= limit) break;
  }
  res.end();
}

/** io /fetch: the object copied from a URL into the bucket, answered with what was stored. */
async function fetchFromSource(deps: ManagementDeps, { res, account, params }: ManagementRequest): Promise<void> {
  const { blobs, objects } = deps;
  const source = urlsafeB64Decode(params.source!).toString('utf8');
  const { bucket, key } = decodeEntry(params.entry!);
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
async function prefetchFromMirror(deps: ManagementDeps, { res, account, params }: ManagementRequest): Promise<void> {
  const { blobs, objects } = deps;
  const { bucket, key } = decodeEntry(params.entry!);
  const row = objects.ownedBucket(bucket, account.accessKey);
  if (!row.mirror) throw new KodoError(400, 'bucket has no mirror source');
  if (key === undefined) throw new KodoError(400, 'entry has no key');
  const response = await fetch(`${row.mirror.replace(/\/$/, '')}/${encodeURI(key)}`, { signal: AbortSignal.timeout(60_000) }).catch(
    () => undefined,
  );
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

/** fusion /v2/tune/*: the CDN API (refresh, prefetch, their task lists, traffic, log lists), each a JSON body. */
function cdnRoutes(cdnDeps: CdnDeps): ManagementRoute[] {
  const tune = (
    name: string,
    reply: (account: Account, json: Record<string, unknown>, request: ManagementRequest) => { status: number; body: unknown },
  ): ManagementRoute => ({
    method: '*',
    path: `/v2/tune/${name}`,
    handler: (request) => {
      const json = cdnBody(request.body);
      const { status, body } = reply(request.account, json, request);
      sendJson(request.res, status, body);
    },
  });
  return [
    tune('refresh', (account, json) => refresh(cdnDeps, account, json)),
    tune('refresh/list', (account, json) => taskList(cdnDeps, account, 'refresh', json)),
    tune('prefetch', (account, json) => prefetch(cdnDeps, account, json)),
    tune('prefetch/list', (account, json) => taskList(cdnDeps, account, 'prefetch', json)),
    tune('flux', (_, json) => traffic(cdnDeps, 'flux', json)),
    tune('bandwidth', (_, json) => traffic(cdnDeps, 'bandwidth', json)),
    tune('log/list', (account, json, { req }) => logList(cdnDeps, account, json, req)),
    {
      method: '*',
      path: '/v2/tune/*',
      handler: ({ body, params }) => {
        cdnBody(body);
        throw new KodoError(404, `no such CDN API ${params['*']}`);
      },
    },
  ];
}

function cdnBody(body: Buffer): Record<string, unknown> {
  try {
    return JSON.parse(body.toString('utf8') || '{}') as Record<string, unknown>;
  } catch {
    throw new KodoError(400, 'CDN request body is not JSON');
  }
}
