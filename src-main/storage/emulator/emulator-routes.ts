import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '../../platform/logger';
import { createRouteTable } from '../../platform/http/route-table';
import { verifyDownloadToken, verifyManagementAuth, type AccountLookup } from './auth';
import { bucketOfDomain } from './bucket-domains';
import { parseLogName, renderLog, type CdnDeps } from './cdn-routes';
import { handleDownload, type DownloadDeps } from './download-routes';
import { parseForm, readBody, sendError, sendJson } from './http-kit';
import { INTERNAL_ERROR, internalErrorMessage } from './internal-error';
import { KodoError } from './kodo-error';
import { restSegments, type KodoRoute, type ManagementRoute } from './kodo-route';
import { managementRoutes, type ManagementDeps } from './management-routes';
import type { BucketRow, MetadataStore } from './metadata-store';
import type { PersistentFop } from './persistent-fop';
import { legacyQueryEntry, regionQueryEntry, type RegionHostMode } from './regions';
import { handleBput, handleMkblk, handleMkfile } from './resumable-v1';
import { handleFormUpload, handleMultipart, type UploadRouteDeps } from './upload-routes';

export interface EmulatorRouteDeps {
  db: MetadataStore;
  accounts: AccountLookup;
  pfop: PersistentFop;
  clock: () => number;
  maxSkew: number;
  regionHosts: RegionHostMode;
  /** The emulator's own address, known once it listens. */
  publicUrl(): string;
  /** The origin a request came in on (its Host and scheme), or the emulator's own address. */
  originOf(req?: IncomingMessage): string;
  upload: UploadRouteDeps;
  download: DownloadDeps;
  cdn: CdnDeps;
  management: ManagementDeps;
}

/**
 * Every Kodo host on one port: a bucket's domain serves downloads (by Host, any path); the rest
 * is one route table: upload (form, v1 blocks, v2 multipart), the unsigned calls (downloads by
 * path, the region query, prefop status, CDN logs) and the account-signed management APIs,
 * whose signature is checked before their handler. A route answers or throws a KodoError; a path
 * no route has, or a method its routes do not take, is Kodo's 404 `no such API`.
 */
export function createEmulatorRoute(deps: EmulatorRouteDeps) {
  const { db } = deps;
  const table = createRouteTable<KodoRoute>(
    [...uploadRoutes(deps.upload), ...unsignedRoutes(deps), ...managementRoutes(deps.management).map((route) => signed(deps, route))],
    { emptySegments: 'drop' },
  );
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = req.url ?? '/';
    const pathname = url.split('?')[0]!;
    const query = new URLSearchParams(url.includes('?') ? url.slice(url.indexOf('?') + 1) : '');
    const method = req.method ?? 'GET';
    const host = req.headers.host ?? '';

    const domainBucket = bucketOfDomain(db, host);
    if (domainBucket && (method === 'GET' || method === 'HEAD')) {
      await handleDownload(deps.download, req, res, { bucket: domainBucket, rawKey: pathname.slice(1), domain: host.replace(/:\d+$/, '') });
      return;
    }
    const found = table.match(method, pathname);
    if (found.kind !== 'found') throw new KodoError(404, `no such API: ${method} ${pathname}`);
    await found.route.handler({ req, res, url, pathname, query, params: found.params });
  };
}

/** A management route behind the account's signature: the body is read whole, then checked against it. */
function signed(deps: EmulatorRouteDeps, route: ManagementRoute): KodoRoute {
  return {
    ...route,
    handler: async (request) => {
      const body = await readBody(request.req);
      const account = verifyManagementAuth(
        { method: request.req.method ?? 'GET', url: request.url, headers: request.req.headers, body },
        deps.accounts,
        deps.clock(),
        deps.maxSkew,
      );
      await route.handler({ ...request, account, body });
    },
  };
}

/** Form upload, v1 blocks and files, v2 multipart: authorised by the upload token each carries. */
function uploadRoutes(upload: UploadRouteDeps): KodoRoute[] {
  const multipart: KodoRoute['handler'] = ({ req, res, pathname }) =>
    handleMultipart(
      upload,
      req,
      res,
      pathname.split('/').filter((s) => s !== ''),
    );
  return [
    { method: 'POST', path: '/', handler: ({ req, res }) => handleFormUpload(upload, req, res) },
    {
      method: '*',
      path: '/',
      handler: () => {
        // The upload host's root takes only the form upload.
        throw new KodoError(405, 'only allowed POST method');
      },
    },
    { method: '*', path: '/mkblk/:blockSize/*', handler: ({ req, res, params }) => handleMkblk(upload, req, res, params.blockSize!) },
    {
      method: '*',
      path: '/bput/:ctx/:offset',
      handler: ({ req, res, params }) => handleBput(upload, req, res, [params.ctx!, params.offset!]),
    },
    {
      method: '*',
      path: '/mkfile/:fsize/*',
      handler: ({ req, res, params }) => handleMkfile(upload, req, res, [params.fsize!, ...restSegments(params)]),
    },
    { method: '*', path: '/buckets/:bucket/objects/:key/uploads', handler: multipart },
    { method: '*', path: '/buckets/:bucket/objects/:key/uploads/:uploadId', handler: multipart },
    { method: '*', path: '/buckets/:bucket/objects/:key/uploads/:uploadId/:partNumber', handler: multipart },
  ];
}

/** The calls that need no management signature: downloads by path, the region query, prefop status, CDN logs. */
function unsignedRoutes(deps: EmulatorRouteDeps): KodoRoute[] {
  const { db } = deps;
  const regionQuery: KodoRoute['handler'] = ({ req, res, pathname, query }) => {
    const ak = query.get('ak') ?? '';
    const bucket = db.bucket(query.get('bucket') ?? '');
    if (!deps.accounts(ak) || !bucket || bucket.owner !== ak) throw new KodoError(631, 'no such bucket');
    const hostName = req.headers.host || new URL(deps.publicUrl()).host;
    const accelerated = db.setting<string | null>(bucket.name, 'accelerate', 'default') ?? null;
    if (pathname !== '/v2/query') sendJson(res, 200, { hosts: [regionQueryEntry(bucket.region, deps.regionHosts, hostName, accelerated)] });
    else sendJson(res, 200, legacyQueryEntry(bucket.region, deps.regionHosts, hostName, accelerated));
  };
  return [
    {
      method: ['GET', 'HEAD'],
      path: '/download/:bucket/*',
      handler: async ({ req, res, pathname, params }) => {
        const bucket = db.bucket(params.bucket!);
        if (!bucket) throw new KodoError(631, 'no such bucket');
        const rawKey = pathname.slice(`/download/${params.bucket}/`.length);
        await handleDownload(deps.download, req, res, {
          bucket,
          rawKey,
          domain: (JSON.parse(bucket.domains) as string[])[0] ?? bucket.name,
        });
      },
    },
    { method: 'GET', path: '/v4/query', handler: regionQuery },
    { method: 'GET', path: '/v3/query', handler: regionQuery },
    { method: 'GET', path: '/v2/query', handler: regionQuery },
    {
      method: '*',
      path: '/status/get/prefop',
      handler: async ({ req, res, query }) => {
        const body = req.method === 'POST' ? parseForm(await readBody(req)) : query;
        const id = body.get('id') ?? query.get('id') ?? '';
        const status = deps.pfop.status(id);
        if (!status) throw new KodoError(612, 'no such persistentId');
        sendJson(res, 200, status);
      },
    },
    {
      method: 'GET',
      path: '/cdnlogs/:name',
      handler: ({ req, res, url, params }) => {
        const parsed = parseLogName(decodeURIComponent(params.name!));
        const bucket: BucketRow | undefined = parsed ? bucketOfDomain(db, parsed.domain) : undefined;
        if (!parsed || !bucket) throw new KodoError(404, 'no such log file');
        verifyDownloadToken(`${deps.originOf(req)}${url}`, deps.accounts, bucket.owner, deps.clock());
        const gz = renderLog(deps.cdn, parsed.domain, parsed.hourStart);
        res.writeHead(200, { 'Content-Type': 'application/gzip', 'Content-Length': gz.length });
        res.end(gz);
      },
    },
  ];
}

/** A route's failure as Kodo's error reply: its own status, 400 for a bad %-escape, else an internal error. */
export function replyToFailure(error: unknown, req: IncomingMessage, res: ServerResponse, logger: Logger): void {
  if (error instanceof KodoError) {
    if (error.status >= 500) logger.warn('request failed', { url: req.url?.split('?')[0], error: error.message });
    sendError(res, error.status, error.message);
    return;
  }
  // A malformed %-escape anywhere in the URL (a key, a mkfile parameter): the client's fault.
  if (error instanceof URIError) return sendError(res, 400, `bad request: malformed percent escape in the URL (${error.message})`);
  logger.error('unexpected error', { url: req.url?.split('?')[0], error });
  sendError(res, INTERNAL_ERROR, internalErrorMessage(error));
}
