import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createDualProtocolServer, requestOrigin } from '../../platform/tls/dual-protocol-server';
import { serverTls, tlsSettingsSchema, type TlsSettings } from '../../platform/tls/tls-settings';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { listen } from '../../platform/listen';
import type { Logger } from '../../platform/logger';
import { parseListen } from '../../platform/config/app-settings';
import { loadAccounts, type AccountSet } from './accounts';
import { verifyDownloadToken, verifyManagementAuth, type Account, type AccountLookup } from './auth';
import { BlobStore } from './blob-store';
import { bucketOfDomain, giveTestDomains } from './bucket-domains';
import { applyLifecycleRules } from './bucket-settings';
import { parseLogName, renderLog, type CdnDeps } from './cdn-routes';
import { handleDownload, type DownloadDeps } from './download-routes';
import { parseAccounts, type AccountInput } from './emulator-config';
import { parseForm, readBody, sendError, sendJson } from './http-kit';
import { INTERNAL_ERROR, internalErrorMessage } from './internal-error';
import { KodoError } from './kodo-error';
import { MetadataStore, type BucketRow } from './metadata-store';
import { ObjectService } from './object-service';
import { PersistentFop } from './persistent-fop';
import { seedSampleFiles } from './sample-files';
import { serviceTag } from './service-tag';
import { AsyncFetch } from './async-fetch';
import { EventNotifier } from './event-notifications';
import { legacyQueryEntry, regionQueryEntry, type RegionHostMode } from './regions';
import { handleManagement, isManagementPath, type ManagementDeps } from './management-routes';
import { handleBput, handleMkblk, handleMkfile } from './resumable-v1';
import { handleFormUpload, handleMultipart, sweepUploads, type UploadRouteDeps } from './upload-routes';

export interface StorageEmulatorOptions {
  /** `host:port`; port 0 picks a free one. Default 127.0.0.1:1985. */
  listen?: string;
  /** State lives in `<dataDir>/storage/`. */
  dataDir: string;
  /** Accounts and buckets; without any, a demo account with a `demo` bucket and sample files. */
  accounts?: AccountInput[] | undefined;
  logger: Logger;
  /** Epoch ms; tests move time forward to expire tokens and objects. */
  clock?: () => number;
  maxClockSkewSeconds?: number;
  /** Workflow templates: name → processing commands (`storage.emulator.workflows`). */
  workflows?: Record<string, string>;
  /** Host names the region query answers (`storage.emulator.region_hosts`): the emulator's own (default) or Qiniu's. */
  regionHosts?: RegionHostMode;
  /** How often expired objects and uploads are swept (ms). */
  sweepIntervalMs?: number;
  /** https on the same port (`storage.emulator.tls`); default on, with a certificate from a local CA in `<dataDir>/storage/tls`. */
  tls?: TlsSettings;
}

export interface RunningStorageEmulator {
  url: string;
  port: number;
  /** The accounts in use (the demo one when none were configured). */
  accounts: Account[];
  /** Runs the expiry sweeper now. */
  sweep(): Promise<void>;
  /** Resolves when queued persistent-processing tasks have run. */
  idle(): Promise<void>;
  close(): Promise<void>;
}


/** The Kodo-compatible emulator: upload, rs, rsf, io, uc, api and downloads on one port. */
export async function createStorageEmulator(options: StorageEmulatorOptions): Promise<RunningStorageEmulator> {
  const logger = options.logger.child('storage.emulator');
  const clock = options.clock ?? (() => Date.now());
  const maxSkew = options.maxClockSkewSeconds ?? 900;
  const root = join(options.dataDir, 'storage');
  await mkdir(root, { recursive: true });

  const accountSet: AccountSet = await loadAccounts(root, options.accounts ? parseAccounts(options.accounts) : undefined);
  const accounts: AccountLookup = (ak) => accountSet.byKey.get(ak);
  const db = new MetadataStore(join(root, 'metadata.sqlite'));
  const blobs = new BlobStore(root);
  await blobs.init();
  const orphans = await blobs.sweep(db.allBlobs(), db.allPartFiles());
  if (orphans > 0) logger.info('removed files left by an interrupted write', { count: orphans });

  const newBuckets: string[] = [];
  for (const b of accountSet.buckets) {
    const existing = db.bucket(b.name);
    if (existing && existing.owner !== b.owner) throw new Error(`storage.emulator: bucket ${b.name} is configured for two accounts`);
    if (!existing) newBuckets.push(b.name);
    db.upsertBucket({
      name: b.name,
      owner: b.owner,
      private: b.private ? 1 : 0,
      // A config bucket without domains keeps the test domain it was given (links stay valid).
      domains: b.domains.length > 0 || !existing ? JSON.stringify(b.domains) : existing.domains,
      mirror: b.mirror ?? null,
      anti_leech_key: b.antiLeechKey ?? null,
      created: existing?.created ?? clock(),
      region: b.region,
    });
    db.putSetting(b.name, 'accelerate', 'default', b.accelerateDomain ?? null);
    if (b.tags) db.putSetting(b.name, 'tags', 'default', Object.entries(b.tags).map(([Key, Value]) => ({ Key, Value })));
  }

  const given = giveTestDomains(db);
  if (given.length > 0) logger.info('test download domains given to buckets that had none', { buckets: given });

  const notifier = new EventNotifier(db, logger, clock);
  const objects = new ObjectService(db, blobs, clock, logger, (event) => notifier.publish(event));
  const pfop = new PersistentFop({ db, blobs, objects, clock, logger });
  let publicUrl = '';
  const workflows = new Map(Object.entries(options.workflows ?? {}));
  const regionHosts = options.regionHosts ?? 'local';
  const originOf = (req?: IncomingMessage) => (req ? requestOrigin(req, publicUrl) : publicUrl);
  const uploadDeps: UploadRouteDeps = { db, blobs, objects, pfop, clock, logger, accounts, workflows, publicUrl: originOf, assembling: new Set(), finishingParts: new Map() };
  const downloadDeps: DownloadDeps = { db, blobs, objects, accounts, clock, logger };
  const cdnDeps: CdnDeps = { db, objects, clock, publicUrl: originOf };
  const asyncFetch = new AsyncFetch({ objects, blobs, logger });
  const managementDeps: ManagementDeps = { db, blobs, objects, pfop, cdn: cdnDeps, clock, workflows, asyncFetch, logger };

  if (accountSet.demo && newBuckets.length > 0) await seedSampleFiles(objects, blobs, accountSet.buckets[0]!.name);

  const bucketByDomain = (host: string): BucketRow | undefined => bucketOfDomain(db, host);

  const management = async (req: IncomingMessage): Promise<{ account: Account; body: Buffer }> => {
    const body = await readBody(req);
    const account = verifyManagementAuth({ method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers, body }, accounts, clock(), maxSkew);
    return { account, body };
  };

  const route = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = req.url ?? '/';
    const pathname = url.split('?')[0]!;
    const query = new URLSearchParams(url.includes('?') ? url.slice(url.indexOf('?') + 1) : '');
    const method = req.method ?? 'GET';
    const host = req.headers.host ?? '';

    const domainBucket = bucketByDomain(host);
    if (domainBucket && (method === 'GET' || method === 'HEAD')) {
      await handleDownload(downloadDeps, req, res, { bucket: domainBucket, rawKey: pathname.slice(1), domain: host.replace(/:\d+$/, '') });
      return;
    }
    const segments = pathname.split('/').filter((s) => s !== '');
    const head = segments[0] ?? '';

    if (pathname === '/' && method === 'POST') return handleFormUpload(uploadDeps, req, res);
    // The upload host's root takes only the form upload.
    if (pathname === '/') throw new KodoError(405, 'only allowed POST method');
    if (head === 'mkblk') return handleMkblk(uploadDeps, req, res, segments[1] ?? '');
    if (head === 'bput') return handleBput(uploadDeps, req, res, segments.slice(1));
    if (head === 'mkfile') return handleMkfile(uploadDeps, req, res, segments.slice(1));
    if (head === 'buckets' && segments[2] === 'objects' && segments[4] === 'uploads') return handleMultipart(uploadDeps, req, res, segments);

    if (head === 'download' && segments.length >= 2 && (method === 'GET' || method === 'HEAD')) {
      const bucket = db.bucket(segments[1]!);
      if (!bucket) throw new KodoError(631, 'no such bucket');
      const rawKey = pathname.slice(`/download/${segments[1]}/`.length);
      await handleDownload(downloadDeps, req, res, { bucket, rawKey, domain: (JSON.parse(bucket.domains) as string[])[0] ?? bucket.name });
      return;
    }

    if ((pathname === '/v4/query' || pathname === '/v3/query' || pathname === '/v2/query') && method === 'GET') {
      const ak = query.get('ak') ?? '';
      const bucket = db.bucket(query.get('bucket') ?? '');
      if (!accounts(ak) || !bucket || bucket.owner !== ak) throw new KodoError(631, 'no such bucket');
      const hostName = host || new URL(publicUrl).host;
      const accelerated = db.setting<string | null>(bucket.name, 'accelerate', 'default') ?? null;
      if (pathname !== '/v2/query') sendJson(res, 200, { hosts: [regionQueryEntry(bucket.region, regionHosts, hostName, accelerated)] });
      else sendJson(res, 200, legacyQueryEntry(bucket.region, regionHosts, hostName, accelerated));
      return;
    }

    if (pathname === '/status/get/prefop') {
      const body = method === 'POST' ? parseForm(await readBody(req)) : query;
      const id = body.get('id') ?? query.get('id') ?? '';
      const status = pfop.status(id);
      if (!status) throw new KodoError(612, 'no such persistentId');
      sendJson(res, 200, status);
      return;
    }

    if (head === 'cdnlogs' && method === 'GET') {
      const parsed = parseLogName(decodeURIComponent(segments[1] ?? ''));
      const bucket = parsed ? bucketByDomain(parsed.domain) : undefined;
      if (!parsed || !bucket) throw new KodoError(404, 'no such log file');
      verifyDownloadToken(`${originOf(req)}${url}`, accounts, bucket.owner, clock());
      const gz = renderLog(cdnDeps, parsed.domain, parsed.hourStart);
      res.writeHead(200, { 'Content-Type': 'application/gzip', 'Content-Length': gz.length });
      res.end(gz);
      return;
    }

    // Everything below is signed by the account (QBox or Qiniu).
    if (!isManagementPath(pathname, head)) throw new KodoError(404, `no such API: ${method} ${pathname}`);
    const { account, body } = await management(req);
    await handleManagement(managementDeps, { req, res, account, body, pathname, segments, query });
  };

  const tls = await serverTls(options.tls ?? tlsSettingsSchema.parse(undefined), { dir: join(root, 'tls'), label: 'Kodo storage emulator', logger });
  const dual = createDualProtocolServer((req, res) => {
    // Every Kodo reply names its request (X-Reqid, quoted in support tickets) and the services it went through (X-Log).
    res.setHeader('X-Reqid', randomBytes(12).toString('base64url'));
    res.setHeader('X-Log', serviceTag(req.url ?? '/', req.headers.host ?? '', bucketByDomain));
    route(req, res).catch((error: unknown) => {
      if (error instanceof KodoError) {
        if (error.status >= 500) logger.warn('request failed', { url: req.url?.split('?')[0], error: error.message });
        sendError(res, error.status, error.message);
        return;
      }
      // A malformed %-escape anywhere in the URL (a key, a mkfile parameter): the client's fault.
      if (error instanceof URIError) return sendError(res, 400, `bad request: malformed percent escape in the URL (${error.message})`);
      logger.error('unexpected error', { url: req.url?.split('?')[0], error });
      sendError(res, INTERNAL_ERROR, internalErrorMessage(error));
    });
  }, tls);
  for (const http of dual.httpServers) {
    http.keepAliveTimeout = 5000;
    http.requestTimeout = 0;
  }
  const { server } = dual;

  const { host, port } = parseListen(options.listen ?? '127.0.0.1:1985');
  try {
    await listen(server, port, host);
  } catch (error) {
    pfop.close();
    db.close();
    throw error;
  }
  const address = server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  publicUrl = `http://${shownHost === '0.0.0.0' ? '127.0.0.1' : shownHost}:${address.port}`;

  const sweep = async (): Promise<void> => {
    const removed = await objects.sweepExpired();
    if (removed > 0) logger.info('deleteAfterDays: objects expired', { count: removed });
    const ruled = await applyLifecycleRules(db, objects, clock());
    if (ruled > 0) logger.info('lifecycle rules: objects deleted', { count: ruled });
    await sweepUploads({ db, blobs }, clock());
  };
  let sweeping = false;
  const timer = setInterval(() => {
    if (sweeping) return;
    sweeping = true;
    sweep()
      .catch((error: unknown) => logger.warn('sweep failed', { error }))
      .finally(() => (sweeping = false));
  }, options.sweepIntervalMs ?? 60_000);
  timer.unref();

  logger.info('storage emulator listening', { url: publicUrl, accounts: accountSet.list.length, demo: accountSet.demo });
  if (accountSet.demo) logger.info('demo account in use', { access_key: accountSet.list[0]!.accessKey, keys_file: join(root, 'demo-account.json') });

  return {
    url: publicUrl,
    port: address.port,
    accounts: accountSet.list,
    sweep,
    idle: async () => {
      await pfop.idle();
      await asyncFetch.idle();
      await notifier.idle();
      await Promise.all(uploadDeps.finishingParts.values());
    },
    close: async () => {
      clearInterval(timer);
      pfop.close();
      dual.closeAllConnections();
      await dual.close();
      await pfop.idle();
      await asyncFetch.idle();
      await Promise.all(uploadDeps.finishingParts.values());
      await blobs.close();
      db.close();
    },
  };
}
