import { parseForm, sendJson } from './http-kit';
import { KodoError } from './kodo-error';
import type { ManagementRequest, ManagementRoute } from './kodo-route';
import type { MetadataStore } from './metadata-store';
import type { ObjectService } from './object-service';
import type { SettingValue } from './setting-value';

function formObject(form: URLSearchParams): SettingValue {
  const out: SettingValue = {};
  for (const name of new Set(form.keys())) {
    const all = form.getAll(name);
    if (all.length > 1) out[name] = all;
    else out[name] = /^-?\d+$/.test(all[0]!) ? Number(all[0]) : all[0]!;
  }
  return out;
}

function requireName(value: SettingValue, what: string): string {
  const name = value['name'];
  if (typeof name !== 'string' || name === '') throw new KodoError(400, `${what}: name is required`);
  return name;
}

/**
 * The uc bucket-configuration APIs of BucketManager: lifecycle rules (`/rules/*`, with
 * delete_after_days applied by the sweeper), events, CORS, referer anti-leech, access style,
 * max-age, private flag and quota. Each answers 200 with a JSON body.
 */
export function bucketSettingsRoutes(db: MetadataStore, objects: ObjectService): ManagementRoute[] {
  const bucketFrom = (name: string | null | undefined, { account }: ManagementRequest) =>
    objects.ownedBucket(name ?? '', account.accessKey).name;
  const answer =
    (body: (request: ManagementRequest) => unknown): ManagementRoute['handler'] =>
    (request) =>
      sendJson(request.res, 200, body(request));
  /** add, update and delete of a named rule or event (form fields, the bucket in the form or the query). */
  const change = (kind: 'rules' | 'events', action: 'add' | 'update' | 'delete') =>
    answer((request) => {
      const value = formObject(parseForm(request.body));
      const bucket = bucketFrom(typeof value['bucket'] === 'string' ? value['bucket'] : request.query.get('bucket'), request);
      const name = requireName(value, kind);
      const exists = db.setting(bucket, kind, name) !== undefined;
      if (action === 'add') {
        if (exists) throw new KodoError(400, `${kind}: ${name} already exists`);
        db.putSetting(bucket, kind, name, value);
      } else if (action === 'update') {
        if (!exists) throw new KodoError(404, `${kind}: no ${name}`);
        db.putSetting(bucket, kind, name, { ...db.setting<SettingValue>(bucket, kind, name), ...value });
      } else if (!db.deleteSetting(bucket, kind, name)) throw new KodoError(404, `${kind}: no ${name}`);
      return {};
    });
  const named = (kind: 'rules' | 'events'): ManagementRoute[] => [
    {
      method: '*',
      path: `/${kind}/get`,
      handler: answer((request) => db.settings(bucketFrom(request.query.get('bucket'), request), kind)),
    },
    { method: '*', path: `/${kind}/add`, handler: change(kind, 'add') },
    { method: '*', path: `/${kind}/update`, handler: change(kind, 'update') },
    { method: '*', path: `/${kind}/delete`, handler: change(kind, 'delete') },
  ];
  return [
    ...named('rules'),
    ...named('events'),
    {
      method: '*',
      path: '/referAntiLeech',
      handler: answer((request) => {
        db.putSetting(bucketFrom(request.query.get('bucket'), request), 'referer', 'default', formObject(request.query));
        return {};
      }),
    },
    {
      method: '*',
      path: '/corsRules/get/:bucket',
      handler: answer((request) => db.setting(bucketFrom(request.params.bucket, request), 'cors', 'default') ?? []),
    },
    {
      method: '*',
      path: '/corsRules/set/:bucket',
      handler: answer((request) => {
        const bucket = bucketFrom(request.params.bucket, request);
        let rules: unknown;
        try {
          rules = JSON.parse(request.body.toString('utf8') || '[]');
        } catch {
          throw new KodoError(400, 'corsRules: the body must be a JSON array');
        }
        if (!Array.isArray(rules)) throw new KodoError(400, 'corsRules: the body must be a JSON array');
        db.putSetting(bucket, 'cors', 'default', rules);
        return {};
      }),
    },
    {
      method: '*',
      path: '/accessMode/:bucket/mode/:mode',
      handler: answer((request) => {
        const bucket = bucketFrom(request.params.bucket, request);
        const mode = Number(request.params.mode);
        if (mode !== 0 && mode !== 1) throw new KodoError(400, 'accessMode: mode must be 0 or 1');
        db.putSetting(bucket, 'accessMode', 'default', mode);
        return {};
      }),
    },
    {
      method: '*',
      path: '/maxAge',
      handler: answer((request) => {
        db.putSetting(bucketFrom(request.query.get('bucket'), request), 'maxAge', 'default', Number(request.query.get('maxAge') ?? 0));
        return {};
      }),
    },
    {
      method: '*',
      path: '/private',
      handler: answer((request) => {
        const row = objects.ownedBucket(request.query.get('bucket') ?? '', request.account.accessKey);
        const flag = Number(request.query.get('private') ?? 0);
        if (flag !== 0 && flag !== 1) throw new KodoError(400, 'private must be 0 or 1');
        db.upsertBucket({ ...row, private: flag });
        return {};
      }),
    },
    {
      method: '*',
      path: '/setbucketquota/:bucket/size/:size/count/:count',
      handler: answer((request) => {
        const bucket = bucketFrom(request.params.bucket, request);
        const size = Number(request.params.size);
        const count = Number(request.params.count);
        if (!Number.isInteger(size) || !Number.isInteger(count))
          throw new KodoError(400, 'setbucketquota: expected /setbucketquota/<bucket>/size/<n>/count/<n>');
        db.putSetting(bucket, 'quota', 'default', { size, count });
        return {};
      }),
    },
    {
      method: '*',
      path: '/getbucketquota/:bucket',
      handler: answer((request) => db.setting(bucketFrom(request.params.bucket, request), 'quota', 'default') ?? { size: -1, count: -1 }),
    },
  ];
}

/** Lifecycle rules with delete_after_days delete matching objects once they are old enough. */
export async function applyLifecycleRules(db: MetadataStore, objects: ObjectService, now: number): Promise<number> {
  let removed = 0;
  for (const bucket of db.allBuckets()) {
    for (const rule of db.settings<SettingValue>(bucket.name, 'rules')) {
      const days = Number(rule['delete_after_days'] ?? 0);
      if (!(days > 0)) continue;
      const prefix = typeof rule['prefix'] === 'string' ? rule['prefix'] : '';
      const before = (now - days * 86_400_000) * 10_000;
      for (;;) {
        const batch = db.objectsOlderThan(bucket.name, prefix, before);
        if (batch.length === 0) break;
        for (const row of batch) {
          await objects.purge(row);
          removed += 1;
        }
      }
    }
  }
  return removed;
}
