import qiniu from 'qiniu';
import { STORAGE_CLASSES, type BucketSummary, type CustomEndpoints, type KodoRegion, type ListPage, type ObjectDetails, type ObjectSummary } from '../../../src-shared/contract/storage';
import { kodoFailure, unreachable } from './kodo-errors';

/** Where an account's services are: a public region, a private deployment, or one host for all (the emulator). */
export type KodoLocation = { region: KodoRegion } | { endpoints: CustomEndpoints } | { host: string };

export interface KodoCredentials {
  accessKey: string;
  secretKey: string;
}

export interface KodoClient {
  listBuckets(): Promise<BucketSummary[]>;
  listObjects(bucket: string, options: { prefix: string; delimiter: string; marker?: string; limit: number }): Promise<ListPage>;
  stat(bucket: string, key: string): Promise<ObjectDetails>;
}

const hostOf = (url: string) => new URL(url).host;

function sdkConfig(location: KodoLocation): { config: qiniu.conf.Config; where: string } {
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
    const ucProvider = new qiniu.httpc.StaticEndpointsProvider([new qiniu.httpc.Endpoint(hostOf(uc), { defaultScheme: https ? 'https' : 'http' })]);
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
  return { key: entry.key, size: entry.fsize ?? 0, hash: entry.hash, mimeType: entry.mimeType, putTime: putTimeMs(entry.putTime), storageClass: storageClassOf(entry.type) };
}

/** The official qiniu SDK, for one account, answering in the contract's shapes. */
export function createKodoClient(credentials: KodoCredentials, location: KodoLocation): KodoClient {
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

  return {
    async listBuckets() {
      const names = await call(() => manager.listBucket() as Promise<Answer<string[]>>);
      return Promise.all(
        names.map(async (name) => {
          const [info, domains] = await Promise.all([
            call(() => manager.getBucketInfo(name) as Promise<Answer<{ private?: number; region?: string; zone?: string }>>),
            call(() => manager.listBucketDomains(name) as Promise<Answer<Array<{ domain: string }>>>),
          ]);
          return { name, private: info.private === 1, domains: domains.map((d) => d.domain), ...(info.region ?? info.zone ? { region: info.region ?? info.zone } : {}) };
        }),
      );
    },
    async listObjects(bucket, { prefix, delimiter, marker, limit }) {
      const page = await call(() => manager.listPrefix(bucket, { prefix, limit, ...(delimiter ? { delimiter } : {}), ...(marker ? { marker } : {}) }) as Promise<Answer<ListedPage>>);
      return { folders: page.commonPrefixes ?? [], objects: page.items.map(summary), ...(page.marker ? { marker: page.marker } : {}) };
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
  return Object.fromEntries(Object.entries(stat).flatMap(([k, v]) => (k.startsWith('x-qn-meta-') ? [[k.slice('x-qn-meta-'.length), String(v)]] : [])));
}
