/**
 * Kodo's storage regions: the id a bucket is created in, its S3 region name, and the public host
 * names Qiniu gives each of its services there (what SDKs hard-code for each region).
 */
export interface KodoRegion {
  id: string;
  description: string;
  /** The region's name on the S3-compatible API. */
  s3: string;
}

const KODO_REGIONS: readonly KodoRegion[] = [
  { id: 'z0', description: 'East China - Zhejiang', s3: 'cn-east-1' },
  { id: 'cn-east-2', description: 'East China - Zhejiang 2', s3: 'cn-east-2' },
  { id: 'z1', description: 'North China - Hebei', s3: 'cn-north-1' },
  { id: 'z2', description: 'South China - Guangdong', s3: 'cn-south-1' },
  { id: 'na0', description: 'North America - Los Angeles', s3: 'us-north-1' },
  { id: 'as0', description: 'Asia Pacific - Singapore', s3: 'ap-southeast-1' },
  { id: 'ap-southeast-2', description: 'Asia Pacific - Hanoi', s3: 'ap-southeast-2' },
  { id: 'ap-southeast-3', description: 'Asia Pacific - Ho Chi Minh City', s3: 'ap-southeast-3' },
];

export const REGION_IDS = KODO_REGIONS.map((r) => r.id) as [string, ...string[]];

export const regionOf = (id: string): KodoRegion | undefined => KODO_REGIONS.find((r) => r.id === id);

type ServiceName = 'up' | 'io' | 'io_src' | 'rs' | 'rsf' | 'api' | 'uc' | 's3';

/** Qiniu's public host names for a region's services, as Kodo's region query answers them. */
function qiniuHosts(region: string): Record<ServiceName, string[]> {
  const z0 = region === 'z0';
  const suffix = z0 ? '' : `-${region}`;
  const s3 = regionOf(region)?.s3 ?? region;
  return {
    up: [`upload${suffix}.qiniup.com`, `up${suffix}.qiniup.com`],
    io: [`iovip${suffix}.qbox.me`],
    io_src: [`${region}-src.qiniuio.com`],
    rs: [`rs-${region}.qiniuapi.com`],
    rsf: [`rsf-${region}.qiniuapi.com`],
    api: [z0 ? 'api.qiniuapi.com' : `api-${region}.qiniuapi.com`],
    uc: ['uc.qiniuapi.com'],
    s3: [`s3.${s3}.qiniucs.com`],
  };
}

/**
 * How the region query names hosts: `local` (the default) answers the emulator's own address
 * for every service of every region, so any client reaches it; `qiniu` answers Qiniu's public
 * names (each region its own), for SDK test suites run behind a hosts file or proxy that sends
 * those names here.
 */
export type RegionHostMode = 'local' | 'qiniu';

/** One region's entry of `/v4/query` (and uc `/v3/query`). */
export function regionQueryEntry(
  region: string,
  mode: RegionHostMode,
  ownHost: string,
  acceleratedHost: string | null,
): Record<string, unknown> {
  const names = mode === 'qiniu' ? qiniuHosts(region) : undefined;
  const service = (name: ServiceName) => ({ domains: names ? names[name] : [ownHost] });
  return {
    region,
    ttl: 86400,
    up: { ...service('up'), old: [], ...(acceleratedHost ? { acc_domains: [acceleratedHost] } : {}) },
    io: service('io'),
    io_src: service('io_src'),
    rs: service('rs'),
    rsf: service('rsf'),
    api: service('api'),
    uc: service('uc'),
    s3: { ...service('s3'), region_alias: regionOf(region)?.s3 ?? region },
  };
}

/** The older `/v2/query` form: main and backup lists per service. */
export function legacyQueryEntry(
  region: string,
  mode: RegionHostMode,
  ownHost: string,
  acceleratedHost: string | null,
): Record<string, unknown> {
  const names = mode === 'qiniu' ? qiniuHosts(region) : undefined;
  const main = (name: ServiceName) => ({ main: names ? names[name] : [ownHost] });
  return {
    ttl: 86400,
    io: { src: main('io') },
    up: { src: main('up'), acc: acceleratedHost ? { main: [acceleratedHost] } : main('up') },
    uc: main('uc'),
    rs: main('rs'),
    rsf: main('rsf'),
    api: main('api'),
  };
}

/**
 * The region a Qiniu upload host belongs to: `up-z1.qiniup.com` and `upload-z1.qiniup.com` are z1,
 * `up.qiniup.com` is z0, the older `qiniu.com` and `qbox.me` names alike. Any other name (the
 * emulator's own address, an acceleration domain) is no region's and takes every bucket.
 */
export function uploadHostRegion(host: string): string | undefined {
  const name = host.replace(/:\d+$/, '').toLowerCase();
  const match = /^(?:up|upload)(?:-([a-z0-9-]+))?\.(?:qiniup\.com|qiniu\.com|qbox\.me)$/.exec(name);
  if (!match) return undefined;
  const region = match[1] ?? 'z0';
  return regionOf(region) ? region : undefined;
}

/** The upload host Kodo names when a bucket's upload reached another region (`up-z0.qiniup.com` for z0 too). */
export function regionUploadHost(region: string): string {
  return `up-${region}.qiniup.com`;
}
