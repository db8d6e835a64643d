import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '../../platform/logger';
import { verifyDownloadToken, verifyManagementAuth, type Account, type AccountLookup } from './auth';
import { bucketOfDomain } from './bucket-domains';
import { parseLogName, renderLog, type CdnDeps } from './cdn-routes';
import { handleDownload, type DownloadDeps } from './download-routes';
import { parseForm, readBody, sendError, sendJson } from './http-kit';
import { INTERNAL_ERROR, internalErrorMessage } from './internal-error';
import { KodoError } from './kodo-error';
import { handleManagement, isManagementPath, type ManagementDeps } from './management-routes';
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

/** One request as the routes see it: its path, split, and its query. */
interface Parsed {
  url: string;
  pathname: string;
  segments: string[];
  head: string;
  query: URLSearchParams;
  method: string;
  host: string;
}

/**
 * Every Kodo host on one port: a bucket's domain serves downloads; then upload (form, v1 blocks,
 * v2 multipart), the region query, prefop status, CDN logs; anything else is a signed management
 * call. A route answers or throws a KodoError.
 */
export function createEmulatorRoute(deps: EmulatorRouteDeps) {
  const { db, upload } = deps;
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
    const segments = pathname.split('/').filter((s) => s !== '');
    const head = segments[0] ?? '';

    if (pathname === '/' && method === 'POST') return handleFormUpload(upload, req, res);
    // The upload host's root takes only the form upload.
    if (pathname === '/') throw new KodoError(405, 'only allowed POST method');
    if (head === 'mkblk') return handleMkblk(upload, req, res, segments[1] ?? '');
    if (head === 'bput') return handleBput(upload, req, res, segments.slice(1));
    if (head === 'mkfile') return handleMkfile(upload, req, res, segments.slice(1));
    if (head === 'buckets' && segments[2] === 'objects' && segments[4] === 'uploads') return handleMultipart(upload, req, res, segments);
    if (await answerUnsigned(deps, req, res, { url, pathname, segments, head, query, method, host })) return;

    // Everything below is signed by the account (QBox or Qiniu).
    if (!isManagementPath(pathname, head)) throw new KodoError(404, `no such API: ${method} ${pathname}`);
    const { account, body } = await signedBody(deps, req);
    await handleManagement(deps.management, { req, res, account, body, pathname, segments, query });
  };
}

/** A management call's body, and the account whose signature it carries. */
async function signedBody(deps: EmulatorRouteDeps, req: IncomingMessage): Promise<{ account: Account; body: Buffer }> {
  const body = await readBody(req);
  const account = verifyManagementAuth({ method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers, body }, deps.accounts, deps.clock(), deps.maxSkew);
  return { account, body };
}

/** The routes that need no management signature: downloads by path, the region query, prefop status, CDN logs. */
async function answerUnsigned(deps: EmulatorRouteDeps, req: IncomingMessage, res: ServerResponse, { url, pathname, segments, head, query, method, host }: Parsed): Promise<boolean> {
  const { db } = deps;
  if (head === 'download' && segments.length >= 2 && (method === 'GET' || method === 'HEAD')) {
    const bucket = db.bucket(segments[1]!);
    if (!bucket) throw new KodoError(631, 'no such bucket');
    const rawKey = pathname.slice(`/download/${segments[1]}/`.length);
    await handleDownload(deps.download, req, res, { bucket, rawKey, domain: (JSON.parse(bucket.domains) as string[])[0] ?? bucket.name });
    return true;
  }

  if ((pathname === '/v4/query' || pathname === '/v3/query' || pathname === '/v2/query') && method === 'GET') {
    const ak = query.get('ak') ?? '';
    const bucket = db.bucket(query.get('bucket') ?? '');
    if (!deps.accounts(ak) || !bucket || bucket.owner !== ak) throw new KodoError(631, 'no such bucket');
    const hostName = host || new URL(deps.publicUrl()).host;
    const accelerated = db.setting<string | null>(bucket.name, 'accelerate', 'default') ?? null;
    if (pathname !== '/v2/query') sendJson(res, 200, { hosts: [regionQueryEntry(bucket.region, deps.regionHosts, hostName, accelerated)] });
    else sendJson(res, 200, legacyQueryEntry(bucket.region, deps.regionHosts, hostName, accelerated));
    return true;
  }

  if (pathname === '/status/get/prefop') {
    const body = method === 'POST' ? parseForm(await readBody(req)) : query;
    const id = body.get('id') ?? query.get('id') ?? '';
    const status = deps.pfop.status(id);
    if (!status) throw new KodoError(612, 'no such persistentId');
    sendJson(res, 200, status);
    return true;
  }

  if (head === 'cdnlogs' && method === 'GET') {
    const parsed = parseLogName(decodeURIComponent(segments[1] ?? ''));
    const bucket: BucketRow | undefined = parsed ? bucketOfDomain(db, parsed.domain) : undefined;
    if (!parsed || !bucket) throw new KodoError(404, 'no such log file');
    verifyDownloadToken(`${deps.originOf(req)}${url}`, deps.accounts, bucket.owner, deps.clock());
    const gz = renderLog(deps.cdn, parsed.domain, parsed.hourStart);
    res.writeHead(200, { 'Content-Type': 'application/gzip', 'Content-Length': gz.length });
    res.end(gz);
    return true;
  }
  return false;
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
