import { KodoError } from './kodo-error';
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

export interface SettingsRequest {
  /** First path segments after the leading slash, e.g. ['rules', 'add']. */
  segments: string[];
  query: URLSearchParams;
  form: URLSearchParams;
  body: Buffer;
  owner: string;
}

/**
 * The uc bucket-configuration APIs of BucketManager: lifecycle rules (`/rules/*`, with
 * delete_after_days applied by the sweeper), events, CORS, referer anti-leech, access style,
 * max-age, private flag and quota. Returns the reply body, or undefined when the path is not one.
 */
export function handleBucketSettings(db: MetadataStore, objects: ObjectService, request: SettingsRequest): { body: unknown } | undefined {
  const [head, second, third] = request.segments;
  const bucketFrom = (name: string | null | undefined) => objects.ownedBucket(name ?? '', request.owner).name;
  const named = (kind: 'rules' | 'events', action: string | undefined) => {
    if (action === 'get') return { body: db.settings(bucketFrom(request.query.get('bucket')), kind) };
    const value = formObject(request.form);
    const bucket = bucketFrom(typeof value['bucket'] === 'string' ? value['bucket'] : request.query.get('bucket'));
    const name = requireName(value, kind);
    const exists = db.setting(bucket, kind, name) !== undefined;
    if (action === 'add') {
      if (exists) throw new KodoError(400, `${kind}: ${name} already exists`);
      db.putSetting(bucket, kind, name, value);
    } else if (action === 'update') {
      if (!exists) throw new KodoError(404, `${kind}: no ${name}`);
      db.putSetting(bucket, kind, name, { ...db.setting<SettingValue>(bucket, kind, name), ...value });
    } else if (action === 'delete') {
      if (!db.deleteSetting(bucket, kind, name)) throw new KodoError(404, `${kind}: no ${name}`);
    } else throw new KodoError(404, `no such API /${kind}/${action ?? ''}`);
    return { body: {} };
  };
  switch (head) {
    case 'rules':
      return named('rules', second);
    case 'events':
      return named('events', second);
    case 'referAntiLeech': {
      const value = formObject(request.query);
      db.putSetting(bucketFrom(request.query.get('bucket')), 'referer', 'default', value);
      return { body: {} };
    }
    case 'corsRules': {
      const bucket = bucketFrom(third);
      if (second === 'get') return { body: db.setting(bucket, 'cors', 'default') ?? [] };
      if (second !== 'set') return undefined;
      let rules: unknown;
      try {
        rules = JSON.parse(request.body.toString('utf8') || '[]');
      } catch {
        throw new KodoError(400, 'corsRules: the body must be a JSON array');
      }
      if (!Array.isArray(rules)) throw new KodoError(400, 'corsRules: the body must be a JSON array');
      db.putSetting(bucket, 'cors', 'default', rules);
      return { body: {} };
    }
    case 'accessMode': {
      const bucket = bucketFrom(second);
      const mode = Number(request.segments[3]);
      if (third !== 'mode' || (mode !== 0 && mode !== 1)) throw new KodoError(400, 'accessMode: mode must be 0 or 1');
      db.putSetting(bucket, 'accessMode', 'default', mode);
      return { body: {} };
    }
    case 'maxAge': {
      const bucket = bucketFrom(request.query.get('bucket'));
      db.putSetting(bucket, 'maxAge', 'default', Number(request.query.get('maxAge') ?? 0));
      return { body: {} };
    }
    case 'private': {
      const row = objects.ownedBucket(request.query.get('bucket') ?? '', request.owner);
      const flag = Number(request.query.get('private') ?? 0);
      if (flag !== 0 && flag !== 1) throw new KodoError(400, 'private must be 0 or 1');
      db.upsertBucket({ ...row, private: flag });
      return { body: {} };
    }
    case 'setbucketquota': {
      const bucket = bucketFrom(second);
      const size = Number(request.segments[3]);
      const count = Number(request.segments[5]);
      if (third !== 'size' || request.segments[4] !== 'count' || !Number.isInteger(size) || !Number.isInteger(count)) {
        throw new KodoError(400, 'setbucketquota: expected /setbucketquota/<bucket>/size/<n>/count/<n>');
      }
      db.putSetting(bucket, 'quota', 'default', { size, count });
      return { body: {} };
    }
    case 'getbucketquota':
      return { body: db.setting(bucketFrom(second), 'quota', 'default') ?? { size: -1, count: -1 } };
    default:
      return undefined;
  }
}

export const SETTINGS_HEADS: ReadonlySet<string> = new Set(['rules', 'events', 'referAntiLeech', 'corsRules', 'accessMode', 'maxAge', 'private', 'setbucketquota', 'getbucketquota']);

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
