import { bucketOfDomain, newTestDomain } from './bucket-domains';
import type { SettingValue } from './setting-value';
import { urlsafeB64Decode } from './encoding';
import { sendJson } from './http-kit';
import { KodoError } from './kodo-error';
import type { ManagementRequest, ManagementRoute } from './kodo-route';
import type { BucketRow, MetadataStore } from './metadata-store';
import type { ObjectService } from './object-service';
import { regionOf } from './regions';

// uc's bucket APIs: list (by region and tag), create in a region, drop, info (one or all of a
// region), domains and tags, in the shapes Kodo answers them.

interface Tag {
  Key: string;
  Value: string;
}

const TAG_KEY = /^[A-Za-z0-9_.:/=+@-]{1,64}$/;

function readTags(body: Buffer): Tag[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    throw new KodoError(400, 'bucketTagging: the body must be JSON {"Tags":[{"Key":..,"Value":..}]}');
  }
  const tags = (parsed as { Tags?: unknown }).Tags;
  if (!Array.isArray(tags)) throw new KodoError(400, 'bucketTagging: Tags must be a list');
  if (tags.length > 10) throw new KodoError(400, 'bucketTagging: a bucket has at most 10 tags');
  const seen = new Set<string>();
  return tags.map((tag) => {
    const { Key, Value } = (tag ?? {}) as Partial<Tag>;
    if (typeof Key !== 'string' || !TAG_KEY.test(Key) || Key.toLowerCase().startsWith('kodo'))
      throw new KodoError(
        400,
        `bucketTagging: invalid tag key ${JSON.stringify(Key)} (1-64 letters, digits and _.:/=+-@, not starting with kodo)`,
      );
    if (typeof Value !== 'string' || Value.length > 128)
      throw new KodoError(400, `bucketTagging: invalid value of tag ${Key} (a string of at most 128 characters)`);
    if (seen.has(Key)) throw new KodoError(400, `bucketTagging: tag ${Key} is given twice`);
    seen.add(Key);
    return { Key, Value };
  });
}

/** `tagCondition` of GET /buckets: urlsafe base64 of `key=k1&value=v1;key=k2` (a key without a value matches any value). */
function tagFilter(text: string | null): ((tags: Tag[]) => boolean) | undefined {
  if (!text) return undefined;
  const conditions = urlsafeB64Decode(text)
    .toString('utf8')
    .split(';')
    .filter(Boolean)
    .map((part) => new URLSearchParams(part));
  if (conditions.some((c) => !c.get('key'))) throw new KodoError(400, 'tagCondition: each condition needs key=');
  return (tags) => conditions.every((c) => tags.some((t) => t.Key === c.get('key') && (!c.has('value') || t.Value === c.get('value'))));
}

/** `/v2/bucketInfo`: the bucket's settings as uc reports them. */
function bucketInfo(db: MetadataStore, row: BucketRow): Record<string, unknown> {
  const referer = db.setting<SettingValue>(row.name, 'referer', 'default');
  const list = (value: unknown) => (typeof value === 'string' && value !== '' ? value.split(';') : []);
  const refererMode = Number(referer?.['mode'] ?? 0);
  return {
    source: row.mirror ?? '',
    host: '',
    expires: 0,
    protected: 0,
    private: row.private,
    no_index_page: 0,
    max_age: db.setting<number>(row.name, 'maxAge', 'default') ?? 0,
    separator: '-',
    styles: null,
    anti_leech_mode: refererMode,
    token_anti_leech: row.anti_leech_key ? 1 : 0,
    refer_wl: refererMode === 1 ? list(referer?.['pattern']) : null,
    refer_bl: refererMode === 2 ? list(referer?.['pattern']) : null,
    source_enabled: Number(referer?.['source_enabled'] ?? 0) === 1,
    no_refer: Number(referer?.['norefer'] ?? 0) === 1,
    zone: row.region,
    region: row.region,
    ctime: new Date(row.created).toISOString(),
  };
}

const tagsOf = (db: MetadataStore, bucket: string) => db.setting<Tag[]>(bucket, 'tags', 'default') ?? [];

/**
 * uc's bucket calls. Each refuses a `region` query that names no region, and answers 200 with a
 * JSON body.
 */
export function bucketRoutes(db: MetadataStore, objects: ObjectService, clock: () => number): ManagementRoute[] {
  const answer =
    (body: (request: ManagementRequest, mine: () => BucketRow[]) => unknown): ManagementRoute['handler'] =>
    (request) => {
      const wantedRegion = request.query.get('region');
      if (wantedRegion && !regionOf(wantedRegion)) throw new KodoError(400, `invalid region ${wantedRegion}`);
      const mine = () => db.bucketsOf(request.account.accessKey).filter((b) => !wantedRegion || b.region === wantedRegion);
      sendJson(request.res, 200, body(request, mine));
    };
  const owned = (name: string | null | undefined, request: ManagementRequest) => objects.ownedBucket(name ?? '', request.account.accessKey);
  const domains = (request: ManagementRequest) => {
    const row = owned(request.query.get('tbl'), request);
    return { row, domains: JSON.parse(row.domains) as string[] };
  };
  const makeBucket = answer(({ params, account }) => {
    const name = params.bucket ?? '';
    if (!/^[a-zA-Z0-9_-]{3,63}$/.test(name)) throw new KodoError(400, 'invalid bucket name: 3-63 letters, digits, - and _');
    const region = params.region ?? 'z0';
    if (!regionOf(region)) throw new KodoError(400, `invalid region ${region}`);
    if (db.bucket(name)) throw new KodoError(614, 'the bucket already exists');
    // As on Kodo, a new bucket comes with a test domain to download from.
    const domain = newTestDomain((d) => bucketOfDomain(db, d) !== undefined);
    db.upsertBucket({
      name,
      owner: account.accessKey,
      private: 0,
      domains: JSON.stringify([domain]),
      mirror: null,
      anti_leech_key: null,
      created: clock(),
      region,
    });
    return {};
  });
  const tagging = (change: (bucket: string, request: ManagementRequest) => unknown) =>
    answer((request) => change(owned(request.query.get('bucket'), request).name, request));

  return [
    {
      method: '*',
      path: '/buckets',
      handler: answer(({ query }, mine) => {
        const byTags = tagFilter(query.get('tagCondition'));
        const buckets = mine().filter((b) => !byTags || byTags(tagsOf(db, b.name)));
        // go-sdk's BucketsV4 asks with apiVersion=v4: the paged object form.
        return query.get('apiVersion') === 'v4' ? v4List(db, buckets, query) : buckets.map((b) => b.name);
      }),
    },
    { method: '*', path: '/v3/buckets', handler: answer(({ query }, mine) => v4List(db, mine(), query)) },
    {
      method: '*',
      path: '/v2/buckets',
      handler: answer((_, mine) =>
        mine().map((b) => ({
          tbl: b.name,
          itbl: 0,
          region: b.region,
          zone: b.region,
          private: b.private,
          ctime: Math.floor(b.created / 1000),
        })),
      ),
    },
    { method: '*', path: '/v2/bucketInfos', handler: answer((_, mine) => mine().map((b) => ({ name: b.name, info: bucketInfo(db, b) }))) },
    { method: '*', path: '/v2/bucketInfo', handler: answer((request) => bucketInfo(db, owned(request.query.get('bucket'), request))) },
    { method: '*', path: '/bucket/:bucket', handler: answer((request) => bucketInfo(db, owned(request.params.bucket, request))) },
    { method: '*', path: '/v2/domains', handler: answer((request) => domains(request).domains) },
    {
      method: '*',
      path: '/v3/domains',
      handler: answer((request) => {
        const { row, domains: names } = domains(request);
        return names.map((domain) => ({
          domain,
          tbl: row.name,
          owner: 0,
          refresh: false,
          ctime: Math.floor(row.created / 1000),
          utime: Math.floor(row.created / 1000),
        }));
      }),
    },
    { method: '*', path: '/mkbucketv3/:bucket', handler: makeBucket },
    { method: '*', path: '/mkbucketv3/:bucket/region/:region', handler: makeBucket },
    {
      method: '*',
      path: '/mkbucketv3/*',
      handler: answer(() => {
        throw new KodoError(400, 'mkbucketv3: expected /mkbucketv3/<bucket>/region/<region>');
      }),
    },
    {
      method: '*',
      path: '/drop/:bucket',
      handler: answer((request) => {
        const name = owned(request.params.bucket, request).name;
        if (db.countObjects(name) > 0) throw new KodoError(400, 'the bucket is not empty: delete its files first');
        db.dropBucket(name);
        db.dropSettings(name);
        return {};
      }),
    },
    { method: 'GET', path: '/bucketTagging', handler: tagging((bucket) => ({ Tags: tagsOf(db, bucket) })) },
    {
      method: 'PUT',
      path: '/bucketTagging',
      handler: tagging((bucket, request) => {
        db.putSetting(bucket, 'tags', 'default', readTags(request.body));
        return {};
      }),
    },
    {
      method: 'DELETE',
      path: '/bucketTagging',
      handler: tagging((bucket) => {
        db.deleteSetting(bucket, 'tags', 'default');
        return {};
      }),
    },
    {
      method: '*',
      path: '/bucketTagging',
      handler: tagging((_, { req }) => {
        throw new KodoError(405, `bucketTagging does not take ${req.method ?? 'GET'}`);
      }),
    },
  ];
}

/** The paged form of a bucket list (`/v3/buckets`, `/buckets?apiVersion=v4`): name order, marker after the last name. */
function v4List(db: MetadataStore, buckets: BucketRow[], query: URLSearchParams): Record<string, unknown> {
  const limit = Number(query.get('limit') || 1000);
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw new KodoError(400, 'limit must be 1-1000');
  const marker = query.get('marker') ?? '';
  const after = buckets.filter((b) => b.name > marker);
  const page = after.slice(0, limit);
  return {
    buckets: page.map((b) => ({
      name: b.name,
      region: b.region,
      private: b.private,
      ctime: new Date(b.created).toISOString(),
      tags: tagsOf(db, b.name),
    })),
    marker: after.length > limit ? page.at(-1)!.name : '',
    is_truncated: after.length > limit,
  };
}
