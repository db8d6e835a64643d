import type qiniu from 'qiniu';
import { qiniuSdk } from './qiniu-sdk';
import {
  STORAGE_CLASSES,
  type BucketSettings,
  type CorsRule,
  type LifecycleRule,
  type RefererRule,
  type BucketSummary,
  type StorageClass,
  type CustomEndpoints,
  type KodoRegion,
  type ListPage,
  type ObjectDetails,
  type ObjectSummary,
} from '@shared/contract/storage';
import { ContractFailure } from '@shared/contract/result';
import { kodoFailure, unreachable } from './kodo-errors';
import type { ObjectSource } from './object-source';
import { abortRecordedUpload, PART_SIZE, uploadFile, type Uploaded, type UploadJob } from './kodo-transfers';
import { createBodyBuffers } from './body-buffers';
import {
  corsFromWire,
  corsToWire,
  isTestDomain,
  lifecycleFromWire,
  lifecycleToWire,
  refererFromWire,
  refererToWire,
  type WireCorsRule,
  type WireLifecycleRule,
  type WireRefererInfo,
} from './bucket-settings-wire';

/** Where an account's services are: a public region, a private deployment, or one host for all (the emulator). */
export type KodoLocation = { region: KodoRegion } | { endpoints: CustomEndpoints } | { host: string };

export interface KodoCredentials {
  accessKey: string;
  secretKey: string;
}

/** One entry of an rs batch (Kodo takes at most 1000 per request). */
export type BatchOperation =
  | { op: 'delete'; bucket: string; key: string }
  | { op: 'move' | 'copy'; bucket: string; key: string; toBucket: string; toKey: string; force: boolean };

/** What became of one entry of a batch: nothing on success, the failure in words otherwise. */
type BatchOutcome = { ok: true } | { ok: false; message: string };

export const BATCH_LIMIT = 1000;

export interface KodoClient {
  listBuckets(): Promise<BucketSummary[]>;
  /** Creates the bucket in a region, then makes it private when asked (Kodo creates it public). */
  createBucket(bucket: string, region: string, options?: { private?: boolean }): Promise<void>;
  bucketSettings(bucket: string): Promise<BucketSettings>;
  setPrivate(bucket: string, isPrivate: boolean): Promise<void>;
  /** uc's `/publish/<domain>/from/<bucket>`; on Kodo the domain's CNAME must point at its CDN too. */
  bindDomain(bucket: string, domain: string): Promise<void>;
  unbindDomain(domain: string): Promise<void>;
  /** Adds the rule, or updates the one of that name. */
  saveLifecycleRule(bucket: string, rule: LifecycleRule): Promise<void>;
  deleteLifecycleRule(bucket: string, name: string): Promise<void>;
  setCorsRules(bucket: string, rules: CorsRule[]): Promise<void>;
  setReferer(bucket: string, rule: RefererRule): Promise<void>;
  deleteBucket(bucket: string): Promise<void>;
  listObjects(bucket: string, options: { prefix: string; delimiter: string; marker?: string; limit: number }): Promise<ListPage>;
  stat(bucket: string, key: string): Promise<ObjectDetails>;
  batch(operations: readonly BatchOperation[]): Promise<BatchOutcome[]>;
  /** Which of these keys exist, asked with batched stats (1000 keys a request). */
  existing(bucket: string, keys: readonly string[]): Promise<Set<string>>;
  /** Size and custom metadata (`x-qn-meta-*`, without the prefix) of many keys, by batched stats; keys that are gone are left out. */
  statMany(bucket: string, keys: readonly string[]): Promise<Map<string, { size: number; metadata: Record<string, string> }>>;
  changeMime(bucket: string, key: string, mimeType: string): Promise<void>;
  changeStorageClass(bucket: string, key: string, storageClass: StorageClass): Promise<void>;
  deleteAfterDays(bucket: string, key: string, days: number): Promise<void>;
  restore(bucket: string, key: string, days: number): Promise<void>;
  /** A zero-byte object, as a folder marker (`photos/2024/`). */
  putEmpty(bucket: string, key: string): Promise<void>;
  /** A download URL on the bucket's first domain, signed until `deadline` (s) for private buckets. */
  downloadUrl(bucket: string, key: string, deadline: number): Promise<string>;
  /**
   * Where main GETs an object (a transfer, a preview): the URL, with a processing command when
   * given (`imageView2/2/w/960`), and for the emulator the address that serves every domain.
   */
  downloadSource(bucket: string, key: string, deadline: number, fop?: string): Promise<ObjectSource>;
  /** Starts persistent processing of one command, its result saved as `saveAs`; resolves with the persistentId. */
  pfop(bucket: string, key: string, command: string, saveAs: { bucket: string; key: string }): Promise<string>;
  /** Kodo's prefop answer: code 0 done, 1 waiting, 2 processing, 3 failed, 4 done but its notification failed. */
  prefop(
    persistentId: string,
  ): Promise<{ code: number; desc?: string; items?: Array<{ code: number; desc?: string; error?: string; key?: string }> }>;
  /** Uploads a local file (resumable v2 above 4 MiB); resolves with what the service stored. */
  upload(job: UploadJob): Promise<Uploaded>;
  /** Drops on the service the parts a resumable upload's record names, then the record. */
  abortUpload(job: { bucket: string; key: string; resumeDir: string; resumeKey: string }): Promise<void>;
  /**
   * A call of the CDN API (`/v2/tune/...`), QBox-signed JSON as the SDK's CdnManager sends it,
   * to the account's CDN API host; answers with the status and the JSON body, errors included.
   */
  cdnPost(path: string, body: Record<string, unknown>): Promise<{ status: number; data: Record<string, unknown> }>;
}

const hostOf = (url: string) => new URL(url).host;

/**
 * How a bucket domain is reached: the emulator serves every domain on its own port (routed by
 * Host, and `*.localhost` names reach loopback in browsers); Kodo's test domains are plain
 * HTTP; a user's own CDN domain is HTTPS.
 */
function domainOrigin(domain: string, location: KodoLocation): string {
  if ('host' in location) return `http://${domain}:${new URL(`http://${location.host}`).port || '80'}`;
  if (/\.(clouddn|qiniudn|qnssl|qiniucdn)\.com$/.test(domain)) return `http://${domain}`;
  return `https://${domain}`;
}

/** Where uc answers: Kodo's, a private deployment's, or the emulator. */
function ucOrigin(location: KodoLocation): string {
  if ('host' in location) return `http://${location.host}`;
  if ('endpoints' in location) return new URL(location.endpoints.uc).origin;
  return 'https://uc.qiniuapi.com';
}

/** Where the CDN API answers: Kodo's fusion host, a private deployment's api host, or the emulator. */
function cdnOrigin(location: KodoLocation): string {
  if ('host' in location) return `http://${location.host}`;
  if ('endpoints' in location) return new URL(location.endpoints.api ?? location.endpoints.uc).origin;
  return 'https://fusion.qiniuapi.com';
}

function sdkConfig(location: KodoLocation): { config: qiniu.conf.Config; where: string } {
  const qiniu = qiniuSdk();
  if ('host' in location) {
    const { host } = location;
    const zone = new qiniu.conf.Zone([host], [host], host, host, host, host);
    const uc = new qiniu.httpc.StaticEndpointsProvider([new qiniu.httpc.Endpoint(host, { defaultScheme: 'http' })]);
    return { config: new qiniu.conf.Config({ zone, useHttpsDomain: false, ucEndpointsProvider: uc }), where: `http://${host}` };
  }
  if ('endpoints' in location) {
    const { uc, rs = uc, rsf = uc, api = uc, up = uc, io = uc } = location.endpoints;
    const zone = new qiniu.conf.Zone([hostOf(up)], [hostOf(up)], hostOf(io), hostOf(rs), hostOf(rsf), hostOf(api));
    const https = new URL(uc).protocol === 'https:';
    const ucProvider = new qiniu.httpc.StaticEndpointsProvider([
      new qiniu.httpc.Endpoint(hostOf(uc), { defaultScheme: https ? 'https' : 'http' }),
    ]);
    return { config: new qiniu.conf.Config({ zone, useHttpsDomain: https, ucEndpointsProvider: ucProvider }), where: uc };
  }
  const zoneName = `Zone_${location.region.replace(/-/g, '_')}` as keyof typeof qiniu.zone;
  const zone = (qiniu.zone[zoneName] as qiniu.conf.Zone | undefined) ?? qiniu.httpc.Region.fromRegionId(location.region);
  return { config: new qiniu.conf.Config({ zone: zone as qiniu.conf.Zone, useHttpsDomain: true }), where: `Kodo ${location.region}` };
}

interface Answer<T> {
  data: T;
  resp: { statusCode?: number };
}

/** Kodo counts upload time in 100 ns units. */
const putTimeMs = (putTime: number) => Math.round(putTime / 10_000);
const storageClassOf = (type: number | undefined) => STORAGE_CLASSES[type ?? 0] ?? 'standard';

function summary(entry: { key: string; fsize?: number; hash: string; mimeType: string; putTime: number; type?: number }): ObjectSummary {
  return {
    key: entry.key,
    size: entry.fsize ?? 0,
    hash: entry.hash,
    mimeType: entry.mimeType,
    putTime: putTimeMs(entry.putTime),
    storageClass: storageClassOf(entry.type),
  };
}

/** What every call of one account's client shares: the SDK with its signer and config, and helpers. */
interface AccountSdk {
  qiniu: ReturnType<typeof qiniuSdk>;
  mac: qiniu.auth.digest.Mac;
  config: qiniu.conf.Config;
  /** Where the calls go, for the words of an "unreachable" error. */
  where: string;
  location: KodoLocation;
  manager: qiniu.rs.BucketManager;
  call<T>(request: () => Promise<Answer<T>>): Promise<T>;
  bucketInfo(name: string): Promise<{ private?: number; region?: string; zone?: string } & WireRefererInfo>;
  bucketDomains(name: string): Promise<Array<{ domain: string }>>;
  downloadUrl(bucket: string, key: string, deadline: number, fop?: string): Promise<string>;
  ucPost(path: string): Promise<void>;
}

/** Opens the SDK for one account at one location. */
function accountSdk(credentials: KodoCredentials, location: KodoLocation): AccountSdk {
  const qiniu = qiniuSdk();
  const mac = new qiniu.auth.digest.Mac(credentials.accessKey, credentials.secretKey);
  const { config, where } = sdkConfig(location);
  const manager = new qiniu.rs.BucketManager(mac, config);

  /** Runs one SDK call: its data on a 2xx, a contract error with Kodo's code otherwise. */
  const call = async <T>(request: () => Promise<Answer<T>>): Promise<T> => {
    let answer: Answer<T>;
    try {
      answer = await request();
    } catch (error) {
      throw unreachable(error, where);
    }
    const status = answer.resp.statusCode ?? 0;
    if (status < 200 || status > 299) throw kodoFailure(status, answer.data);
    return answer.data;
  };

  const bucketInfo = (name: string) =>
    call(() => manager.getBucketInfo(name) as Promise<Answer<{ private?: number; region?: string; zone?: string } & WireRefererInfo>>);
  const bucketDomains = (name: string) => call(() => manager.listBucketDomains(name) as Promise<Answer<Array<{ domain: string }>>>);

  const downloadUrl = async (bucket: string, key: string, deadline: number, fop?: string): Promise<string> => {
    const [info, domains] = await Promise.all([bucketInfo(bucket), bucketDomains(bucket)]);
    const domain = domains[0]?.domain;
    if (!domain) throw new ContractFailure('invalid_input', `the bucket ${bucket} has no domain to download from; bind one to it first`);
    const origin = domainOrigin(domain, location);
    // A processing command is the query of the object's URL, signed with it for private buckets.
    if (info.private === 1) return manager.privateDownloadUrl(origin, fop ? `${key}?${fop}` : key, deadline);
    return `${manager.publicDownloadUrl(origin, key)}${fop ? `?${fop}` : ''}`;
  };

  /** A QBox-signed uc POST the SDK has no call for (domain binding); an error with Kodo's code otherwise. */
  const ucPost = async (path: string): Promise<void> => {
    const url = `${ucOrigin(location)}${path}`;
    let response: Response;
    try {
      response = await fetch(url, { method: 'POST', headers: { Authorization: qiniu.util.generateAccessToken(mac, url) } });
    } catch (error) {
      throw unreachable(error, ucOrigin(location));
    }
    if (!response.ok) throw kodoFailure(response.status, await response.json().catch(() => ({})));
  };

  return { qiniu, mac, config, where, location, manager, call, bucketInfo, bucketDomains, downloadUrl, ucPost };
}

/** A bucket's own calls: create, list, delete, and its settings (access, domains, lifecycle, CORS, referer). */
function bucketCalls({
  qiniu,
  manager,
  call,
  bucketInfo,
  bucketDomains,
  ucPost,
}: AccountSdk): Pick<
  KodoClient,
  | 'bucketSettings'
  | 'setPrivate'
  | 'bindDomain'
  | 'unbindDomain'
  | 'saveLifecycleRule'
  | 'deleteLifecycleRule'
  | 'setCorsRules'
  | 'setReferer'
  | 'listBuckets'
  | 'createBucket'
  | 'deleteBucket'
> {
  return {
    async bucketSettings(bucket) {
      const [info, domains, rules, cors] = await Promise.all([
        bucketInfo(bucket),
        bucketDomains(bucket),
        call(() => manager.getBucketLifecycleRule(bucket) as Promise<Answer<WireLifecycleRule[] | null>>),
        call(() => manager.getCorsRules(bucket) as Promise<Answer<WireCorsRule[] | null>>),
      ]);
      const region = info.region ?? info.zone;
      return {
        name: bucket,
        ...(region ? { region } : {}),
        private: info.private === 1,
        domains: domains.map((d) => ({ domain: d.domain, test: isTestDomain(d.domain) })),
        lifecycle: (rules ?? []).map(lifecycleFromWire),
        cors: (cors ?? []).map(corsFromWire),
        referer: refererFromWire(info),
      };
    },
    async setPrivate(bucket, isPrivate) {
      await call(() => manager.putBucketAccessMode(bucket, { private: isPrivate ? 1 : 0 }) as Promise<Answer<unknown>>);
    },
    bindDomain: (bucket, domain) => ucPost(`/publish/${qiniu.util.urlsafeBase64Encode(domain)}/from/${encodeURIComponent(bucket)}`),
    unbindDomain: (domain) => ucPost(`/unpublish/${qiniu.util.urlsafeBase64Encode(domain)}`),
    async saveLifecycleRule(bucket, rule) {
      const existing = (await call(() => manager.getBucketLifecycleRule(bucket) as Promise<Answer<WireLifecycleRule[] | null>>)) ?? [];
      const wire = lifecycleToWire(rule);
      if (existing.some((r) => r.name === rule.name))
        await call(() => manager.updateBucketLifecycleRule(bucket, wire) as Promise<Answer<unknown>>);
      else await call(() => manager.putBucketLifecycleRule(bucket, wire) as Promise<Answer<unknown>>);
    },
    async deleteLifecycleRule(bucket, name) {
      await call(() => manager.deleteBucketLifecycleRule(bucket, name) as Promise<Answer<unknown>>);
    },
    async setCorsRules(bucket, rules) {
      await call(() => manager.putCorsRules(bucket, rules.map(corsToWire) as never) as Promise<Answer<unknown>>);
    },
    async setReferer(bucket, rule) {
      await call(() => manager.putReferAntiLeech(bucket, refererToWire(rule) as never) as Promise<Answer<unknown>>);
    },
    async listBuckets() {
      const names = await call(() => manager.listBucket() as Promise<Answer<string[]>>);
      return Promise.all(
        names.map(async (name) => {
          const [info, domains] = await Promise.all([bucketInfo(name), bucketDomains(name)]);
          return {
            name,
            private: info.private === 1,
            domains: domains.map((d) => d.domain),
            ...((info.region ?? info.zone) ? { region: info.region ?? info.zone } : {}),
          };
        }),
      );
    },
    async createBucket(bucket, region, options = {}) {
      await call(() => manager.createBucket(bucket, { regionId: region }) as Promise<Answer<unknown>>);
      // Kodo has no private flag at creation: the bucket is made, then set private.
      if (options.private) await call(() => manager.putBucketAccessMode(bucket, { private: 1 }) as Promise<Answer<unknown>>);
    },
    async deleteBucket(bucket) {
      await call(() => manager.deleteBucket(bucket) as Promise<Answer<unknown>>);
    },
  };
}

/** Calls on objects: listing, batches, stats and changes of one object. */
function objectCalls({
  qiniu,
  mac,
  config,
  where,
  manager,
  call,
}: AccountSdk): Pick<
  KodoClient,
  | 'listObjects'
  | 'batch'
  | 'existing'
  | 'statMany'
  | 'changeMime'
  | 'changeStorageClass'
  | 'deleteAfterDays'
  | 'restore'
  | 'putEmpty'
  | 'stat'
> {
  return {
    async listObjects(bucket, { prefix, delimiter, marker, limit }) {
      const page = await call(
        () =>
          manager.listPrefix(bucket, { prefix, limit, ...(delimiter ? { delimiter } : {}), ...(marker ? { marker } : {}) }) as Promise<
            Answer<ListedPage>
          >,
      );
      return { folders: page.commonPrefixes ?? [], objects: page.items.map(summary), ...(page.marker ? { marker: page.marker } : {}) };
    },
    async batch(operations) {
      if (operations.length === 0) return [];
      const ops = operations.map((o) =>
        o.op === 'delete'
          ? qiniu.rs.deleteOp(o.bucket, o.key)
          : (o.op === 'move' ? qiniu.rs.moveOp : qiniu.rs.copyOp)(o.bucket, o.key, o.toBucket, o.toKey, { force: o.force }),
      );
      let answer: Answer<Array<{ code: number; data?: { error?: string } }>>;
      try {
        answer = (await manager.batch(ops)) as Answer<Array<{ code: number; data?: { error?: string } }>>;
      } catch (error) {
        throw unreachable(error, where);
      }
      // 200: all done; 298: some entries failed, each with its own code.
      const status = answer.resp.statusCode ?? 0;
      if ((status !== 200 && status !== 298) || !Array.isArray(answer.data)) throw kodoFailure(status, answer.data);
      return answer.data.map((entry) =>
        entry.code === 200 ? { ok: true } : { ok: false, message: kodoFailure(entry.code, entry.data).message },
      );
    },
    async existing(bucket, keys) {
      const found = new Set<string>();
      for (let i = 0; i < keys.length; i += BATCH_LIMIT) {
        const chunk = keys.slice(i, i + BATCH_LIMIT);
        let answer: Answer<Array<{ code: number; data?: { error?: string } }>>;
        try {
          answer = (await manager.batch(chunk.map((key) => qiniu.rs.statOp(bucket, key)))) as Answer<
            Array<{ code: number; data?: { error?: string } }>
          >;
        } catch (error) {
          throw unreachable(error, where);
        }
        const status = answer.resp.statusCode ?? 0;
        if ((status !== 200 && status !== 298) || !Array.isArray(answer.data)) throw kodoFailure(status, answer.data);
        answer.data.forEach((entry, n) => {
          // 612: no such file. Anything else but a found file is a real failure, not an answer.
          if (entry.code === 200) found.add(chunk[n]!);
          else if (entry.code !== 612) throw kodoFailure(entry.code, entry.data);
        });
      }
      return found;
    },
    async statMany(bucket, keys) {
      const found = new Map<string, { size: number; metadata: Record<string, string> }>();
      for (let i = 0; i < keys.length; i += BATCH_LIMIT) {
        const chunk = keys.slice(i, i + BATCH_LIMIT);
        let answer: Answer<Array<{ code: number; data?: StatLike & { error?: string } }>>;
        try {
          answer = (await manager.batch(chunk.map((key) => qiniu.rs.statOp(bucket, key)))) as Answer<
            Array<{ code: number; data?: StatLike & { error?: string } }>
          >;
        } catch (error) {
          throw unreachable(error, where);
        }
        const status = answer.resp.statusCode ?? 0;
        if ((status !== 200 && status !== 298) || !Array.isArray(answer.data)) throw kodoFailure(status, answer.data);
        answer.data.forEach((entry, n) => {
          // 612: gone since it was listed (a lifecycle rule, another client); anything else is a failure.
          if (entry.code === 200 && entry.data) found.set(chunk[n]!, { size: entry.data.fsize ?? 0, metadata: metadataOf(entry.data) });
          else if (entry.code !== 612) throw kodoFailure(entry.code, entry.data);
        });
      }
      return found;
    },
    async changeMime(bucket, key, mimeType) {
      await call(() => manager.changeMime(bucket, key, mimeType) as Promise<Answer<unknown>>);
    },
    async changeStorageClass(bucket, key, storageClass) {
      await call(() => manager.changeType(bucket, key, STORAGE_CLASSES.indexOf(storageClass)) as Promise<Answer<unknown>>);
    },
    async deleteAfterDays(bucket, key, days) {
      await call(() => manager.deleteAfterDays(bucket, key, days) as Promise<Answer<unknown>>);
    },
    async restore(bucket, key, days) {
      await call(() => manager.restoreAr(`${bucket}:${key}`, days) as Promise<Answer<unknown>>);
    },
    async putEmpty(bucket, key) {
      const token = new qiniu.rs.PutPolicy({ scope: `${bucket}:${key}`, insertOnly: 1 }).uploadToken(mac);
      await call(
        () =>
          new qiniu.form_up.FormUploader(config).put(token, key, Buffer.alloc(0), new qiniu.form_up.PutExtra()) as Promise<Answer<unknown>>,
      );
    },
    async stat(bucket, key) {
      const stat = await call(() => manager.stat(bucket, key) as Promise<Answer<StatLike>>);
      const archived = stat.type === 2 || stat.type === 3;
      const restore = stat.restoreStatus === 2 ? 'restored' : stat.restoreStatus === 1 ? 'restoring' : archived ? 'frozen' : undefined;
      return {
        ...summary({ ...stat, key }),
        ...(stat.md5 ? { md5: stat.md5 } : {}),
        ...(stat.expiration ? { expiration: stat.expiration * 1000 } : {}),
        ...(restore ? { restore } : {}),
        metadata: metadataOf(stat),
      };
    },
  };
}

/** Reaching the bytes (download URLs, uploads), persistent processing and the CDN API. */
function transferAndServiceCalls({
  qiniu,
  mac,
  config,
  where,
  location,
  call,
  downloadUrl,
}: AccountSdk): Pick<KodoClient, 'downloadUrl' | 'downloadSource' | 'upload' | 'abortUpload' | 'cdnPost' | 'pfop' | 'prefop'> {
  const bodies = createBodyBuffers(PART_SIZE);
  return {
    downloadUrl: (bucket, key, deadline) => downloadUrl(bucket, key, deadline),
    async downloadSource(bucket, key, deadline, fop) {
      const url = await downloadUrl(bucket, key, deadline, fop);
      return 'host' in location ? { url, connectTo: location.host } : { url };
    },
    upload: (job) => uploadFile(mac, config, where, job, bodies),
    abortUpload: (job) => abortRecordedUpload(mac, config.useHttpsDomain === true, job),
    async cdnPost(path, body) {
      const url = `${cdnOrigin(location)}${path}`;
      let response: Response;
      try {
        response = await fetch(url, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Authorization: qiniu.util.generateAccessToken(mac, url) },
          body: JSON.stringify(body),
        });
      } catch (error) {
        throw unreachable(error, cdnOrigin(location));
      }
      const data = (await response.json().catch(() => ({}))) as Record<string, unknown>;
      return { status: response.status, data };
    },
    async pfop(bucket, key, command, saveAs) {
      const operations = new qiniu.fop.OperationManager(mac, config);
      const fops = `${command}|saveas/${qiniu.util.encodedEntry(saveAs.bucket, saveAs.key)}`;
      const answer = await call(
        () =>
          new Promise<Answer<{ persistentId: string }>>((resolve, reject) =>
            operations.pfop(bucket, key, [fops], '', { force: true }, (error, data, info) =>
              error ? reject(error) : resolve({ data: data!, resp: info as { statusCode?: number } }),
            ),
          ),
      );
      return answer.persistentId;
    },
    prefop: (persistentId) =>
      call(
        () =>
          new Promise<Answer<Awaited<ReturnType<KodoClient['prefop']>>>>((resolve, reject) =>
            new qiniu.fop.OperationManager(mac, config).prefop(persistentId, (error, data, info) =>
              error
                ? reject(error)
                : resolve({ data: data as Awaited<ReturnType<KodoClient['prefop']>>, resp: info as { statusCode?: number } }),
            ),
          ),
      ),
  };
}

/** The official qiniu SDK, for one account, answering in the contract's shapes. */
export function createKodoClient(credentials: KodoCredentials, location: KodoLocation): KodoClient {
  const sdk = accountSdk(credentials, location);
  return { ...bucketCalls(sdk), ...objectCalls(sdk), ...transferAndServiceCalls(sdk) };
}

interface ListedPage {
  marker?: string;
  commonPrefixes?: string[];
  items: Array<{ key: string; fsize?: number; hash: string; mimeType: string; putTime: number; type?: number }>;
}

interface StatLike {
  fsize?: number;
  hash: string;
  mimeType: string;
  putTime: number;
  type?: number;
  md5?: string;
  expiration?: number;
  restoreStatus?: number;
  [field: string]: unknown;
}

/** Custom metadata (`x-qn-meta-*`), as stat returns it: a nested object or prefixed fields. */
function metadataOf(stat: StatLike): Record<string, string> {
  const nested = stat['x-qn-meta'];
  if (typeof nested === 'object' && nested !== null) return Object.fromEntries(Object.entries(nested).map(([k, v]) => [k, String(v)]));
  return Object.fromEntries(
    Object.entries(stat).flatMap(([k, v]) => (k.startsWith('x-qn-meta-') ? [[k.slice('x-qn-meta-'.length), String(v)]] : [])),
  );
}
