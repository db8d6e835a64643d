import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { createDualProtocolServer, requestOrigin } from '../../platform/tls/dual-protocol-server';
import { serverTls, tlsSettingsSchema, type TlsSettings } from '../../platform/tls/tls-settings';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { listen } from '../../platform/listen';
import type { Logger } from '../../platform/logger';
import { parseListen } from '../../platform/config/app-settings';
import { loadAccounts, type AccountSet } from './accounts';
import type { Account, AccountLookup } from './auth';
import { BlobStore } from './blob-store';
import { bucketOfDomain, giveTestDomains } from './bucket-domains';
import type { CdnDeps } from './cdn-routes';
import { storeConfiguredBuckets } from './configured-buckets';
import type { DownloadDeps } from './download-routes';
import { parseAccounts, type AccountInput } from './emulator-config';
import { createEmulatorRoute, replyToFailure } from './emulator-routes';
import { startExpirySweeper } from './expiry-sweeper';
import { MetadataStore } from './metadata-store';
import { ObjectService } from './object-service';
import { PersistentFop } from './persistent-fop';
import { seedSampleFiles } from './sample-files';
import { serviceTag } from './service-tag';
import { AsyncFetch } from './async-fetch';
import { EventNotifier } from './event-notifications';
import type { RegionHostMode } from './regions';
import type { ManagementDeps } from './management-routes';
import type { UploadRouteDeps } from './upload-routes';

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
  const root = join(options.dataDir, 'storage');
  await mkdir(root, { recursive: true });

  const accountSet: AccountSet = await loadAccounts(root, options.accounts ? parseAccounts(options.accounts) : undefined);
  const accounts: AccountLookup = (ak) => accountSet.byKey.get(ak);
  const db = new MetadataStore(join(root, 'metadata.sqlite'));
  const blobs = new BlobStore(root);
  await blobs.init();
  const orphans = await blobs.sweep(db.allBlobs(), db.allPartFiles());
  if (orphans > 0) logger.info('removed files left by an interrupted write', { count: orphans });

  const newBuckets = storeConfiguredBuckets(db, accountSet, clock);
  const given = giveTestDomains(db);
  if (given.length > 0) logger.info('test download domains given to buckets that had none', { buckets: given });

  const notifier = new EventNotifier(db, logger, clock);
  const objects = new ObjectService(db, blobs, clock, logger, (event) => notifier.publish(event));
  const pfop = new PersistentFop({ db, blobs, objects, clock, logger });
  let publicUrl = '';
  const workflows = new Map(Object.entries(options.workflows ?? {}));
  const originOf = (req?: IncomingMessage) => (req ? requestOrigin(req, publicUrl) : publicUrl);
  const uploadDeps: UploadRouteDeps = {
    db,
    blobs,
    objects,
    pfop,
    clock,
    logger,
    accounts,
    workflows,
    publicUrl: originOf,
    assembling: new Map(),
    finishingParts: new Map(),
  };
  const downloadDeps: DownloadDeps = { db, blobs, objects, accounts, clock, logger };
  const cdnDeps: CdnDeps = { db, objects, clock, publicUrl: originOf };
  const asyncFetch = new AsyncFetch({ objects, blobs, logger });
  const managementDeps: ManagementDeps = { db, blobs, objects, pfop, cdn: cdnDeps, clock, workflows, asyncFetch, logger };

  if (accountSet.demo && newBuckets.length > 0) await seedSampleFiles(objects, blobs, accountSet.buckets[0]!.name);

  const route = createEmulatorRoute({
    db,
    accounts,
    pfop,
    clock,
    maxSkew: options.maxClockSkewSeconds ?? 900,
    regionHosts: options.regionHosts ?? 'local',
    publicUrl: () => publicUrl,
    originOf,
    upload: uploadDeps,
    download: downloadDeps,
    cdn: cdnDeps,
    management: managementDeps,
  });

  const tls = await serverTls(options.tls ?? tlsSettingsSchema.parse(undefined), {
    dir: join(root, 'tls'),
    label: 'Kodo storage emulator',
    logger,
  });
  const dual = createDualProtocolServer((req, res) => {
    // Every Kodo reply names its request (X-Reqid, quoted in support tickets) and the services it went through (X-Log).
    res.setHeader('X-Reqid', randomBytes(12).toString('base64url'));
    res.setHeader(
      'X-Log',
      serviceTag(req.url ?? '/', req.headers.host ?? '', (host) => bucketOfDomain(db, host)),
    );
    route(req, res).catch((error: unknown) => replyToFailure(error, req, res, logger));
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

  const sweeper = startExpirySweeper({ db, blobs, objects, clock, logger, intervalMs: options.sweepIntervalMs ?? 60_000 });

  logger.info('storage emulator listening', { url: publicUrl, accounts: accountSet.list.length, demo: accountSet.demo });
  if (accountSet.demo)
    logger.info('demo account in use', { access_key: accountSet.list[0]!.accessKey, keys_file: join(root, 'demo-account.json') });

  return {
    url: publicUrl,
    port: address.port,
    accounts: accountSet.list,
    sweep: sweeper.sweep,
    idle: async () => {
      await pfop.idle();
      await asyncFetch.idle();
      await notifier.idle();
      await Promise.all(uploadDeps.finishingParts.values());
    },
    close: async () => {
      sweeper.stop();
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
