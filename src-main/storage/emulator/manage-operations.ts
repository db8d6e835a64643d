import type { Account } from './auth';
import { decodeEntry, urlsafeB64Decode } from './encoding';
import { INTERNAL_ERROR, internalErrorMessage } from './internal-error';
import { KodoError } from './kodo-error';
import type { ObjectRow } from './metadata-store';
import { changeLifecycle, LIFECYCLE_OPTIONS, lifecycleStatFields, readLifecycle, writeLifecycle } from './object-lifecycle';
import { assertServableMime, type ObjectService } from './object-service';

export interface OpResult {
  code: number;
  data?: unknown;
}

function statBody(row: ObjectRow, rules: readonly Record<string, unknown>[] = [], now = Date.now()): Record<string, unknown> {
  const body: Record<string, unknown> = {
    fsize: row.fsize,
    hash: row.hash,
    mimeType: row.mime,
    putTime: row.put_time,
    type: row.type,
    // Kodo names the status only for a disabled file.
    ...(row.status !== 0 ? { status: row.status } : {}),
  };
  // Multipart uploads are assembled without an md5 pass, as on Kodo.
  if (row.md5) body['md5'] = row.md5;
  if (row.end_user) body['endUser'] = row.end_user;
  // Kodo names custom metadata without its header prefix here (`x-qn-meta-color` → `color`).
  if (row.meta)
    body['x-qn-meta'] = Object.fromEntries(
      Object.entries(JSON.parse(row.meta) as Record<string, string>).map(([name, value]) => [name.replace(/^x-qn-meta-/i, ''), value]),
    );
  if (row.expire_at !== null) body['expiration'] = Math.floor(row.expire_at / 1000);
  return { ...body, ...lifecycleStatFields(row, rules, now) };
}

function entryOf(objects: ObjectService, account: Account, encoded: string | undefined): { bucket: string; key: string } {
  if (!encoded) throw new KodoError(400, 'missing entry');
  const { bucket, key } = decodeEntry(encoded);
  objects.ownedBucket(bucket, account.accessKey);
  if (key === undefined) throw new KodoError(400, 'entry has no key: expected urlsafeB64(bucket:key)');
  return { bucket, key };
}

/**
 * One rs operation given by its path (`/stat/<e>`, `/move/<src>/<dst>/force/true`, ...), the same
 * code serving single calls and each `op=` of /batch.
 */
export async function runOperation(objects: ObjectService, account: Account, op: string): Promise<OpResult> {
  const segments = op.split('?')[0]!.split('/').filter(Boolean);
  const [name, first, ...rest] = segments;
  const options = new Map<string, string>();
  switch (name) {
    case 'stat': {
      const { bucket, key } = entryOf(objects, account, first);
      return { code: 200, data: statBody(objects.stat(bucket, key), objects.lifecycleRules(bucket), objects.now()) };
    }
    case 'delete': {
      const { bucket, key } = entryOf(objects, account, first);
      await objects.delete(bucket, key);
      return { code: 200 };
    }
    case 'move':
    case 'copy': {
      const src = entryOf(objects, account, first);
      const dst = entryOf(objects, account, rest[0]);
      for (let i = 1; i + 1 < rest.length; i += 2) options.set(rest[i]!, rest[i + 1]!);
      await objects.transfer(name, src, dst, options.get('force') === 'true');
      return { code: 200 };
    }
    case 'chgm': {
      const { bucket, key } = entryOf(objects, account, first);
      for (let i = 0; i + 1 < rest.length; i += 2) options.set(rest[i]!, rest[i + 1]!);
      const mime = options.get('mime');
      const metaChanges: Record<string, string> = {};
      // changeHeaders sends `x-qn-meta-!<name>`; Kodo keeps the `!` as part of the name.
      for (const [k, v] of options) if (k.toLowerCase().startsWith('x-qn-meta-')) metaChanges[k] = urlsafeB64Decode(v).toString('utf8');
      objects.update(bucket, key, (row) => ({
        mime: mime ? servableMime(urlsafeB64Decode(mime).toString('utf8')) : row.mime,
        meta:
          Object.keys(metaChanges).length > 0 ? JSON.stringify({ ...(row.meta ? JSON.parse(row.meta) : {}), ...metaChanges }) : row.meta,
      }));
      return { code: 200 };
    }
    case 'chtype': {
      const { bucket, key } = entryOf(objects, account, first);
      const type = Number(rest[1]);
      if (rest[0] !== 'type' || !Number.isInteger(type) || type < 0 || type > 4) throw new KodoError(400, 'chtype: type must be 0-4');
      objects.update(bucket, key, () => ({ type }));
      return { code: 200 };
    }
    case 'chstatus': {
      const { bucket, key } = entryOf(objects, account, first);
      const status = Number(rest[1]);
      if (rest[0] !== 'status' || (status !== 0 && status !== 1)) throw new KodoError(400, 'chstatus: status must be 0 or 1');
      objects.update(bucket, key, () => ({ status }));
      objects.announce(status === 1 ? 'disable' : 'enable', objects.stat(bucket, key), { accessKey: account.accessKey });
      return { code: 200 };
    }
    case 'deleteAfterDays': {
      const { bucket, key } = entryOf(objects, account, first);
      const days = Number(rest[0]);
      if (!Number.isInteger(days) || days < 0) throw new KodoError(400, 'deleteAfterDays: days must be a whole number >= 0');
      objects.update(bucket, key, () => ({ expire_at: objects.expiry(days) }));
      return { code: 200 };
    }
    case 'lifecycle': {
      // Transitions are dates stat reports (the storage class does not change by itself here);
      // deleteAfterDays really expires the object. 0 leaves a setting, -1 removes it.
      const { bucket, key } = entryOf(objects, account, first);
      for (let i = 0; i + 1 < rest.length; i += 2) options.set(rest[i]!, rest[i + 1]!);
      for (const [k, v] of options)
        if (k !== 'cond' && !/^-?\d+$/.test(v)) throw new KodoError(400, `lifecycle: ${k} must be a number of days`);
      const days = (name: string) => (options.has(name) ? Number(options.get(name)) : undefined);
      const remove = days('deleteAfterDays');
      objects.update(bucket, key, (row) => ({
        expire_at: remove === undefined || remove === 0 ? row.expire_at : remove < 0 ? null : objects.expiry(remove),
        lifecycle: writeLifecycle(
          changeLifecycle(readLifecycle(row), Object.fromEntries(Object.keys(LIFECYCLE_OPTIONS).map((o) => [o, days(o)])), objects.now()),
        ),
      }));
      return { code: 200 };
    }
    case 'restoreAr': {
      const { bucket, key } = entryOf(objects, account, first);
      const row = objects.stat(bucket, key);
      if (row.type !== 2 && row.type !== 3) throw new KodoError(400, 'restoreAr: the file is not in archive storage');
      for (let i = 0; i + 1 < rest.length; i += 2) options.set(rest[i]!, rest[i + 1]!);
      const freezeAfterDays = Number(options.get('freezeAfterDays'));
      if (!Number.isInteger(freezeAfterDays) || freezeAfterDays < 1 || freezeAfterDays > 7)
        throw new KodoError(400, 'restoreAr: freezeAfterDays must be 1-7');
      // The emulator has the bytes at hand: the restored copy is readable at once, for the days asked.
      objects.update(bucket, key, (current) => ({
        lifecycle: writeLifecycle({ ...readLifecycle(current), restoredUntil: objects.now() + freezeAfterDays * 86_400_000 }),
      }));
      objects.announce('restore:completed', objects.stat(bucket, key), { accessKey: account.accessKey });
      return { code: 200 };
    }
    default:
      throw new KodoError(400, `unknown operation ${name ?? ''}`);
  }
}

const MAX_BATCH = 1000;

/**
 * /batch: every op runs and has its own result; HTTP 200 when all succeed, 298 when some failed.
 * An op that fails inside the service (a file-system error) is one 599 result among the others,
 * never the whole batch's answer, and names no server path; `onInternalError` logs it whole.
 */
export async function runBatch(
  objects: ObjectService,
  account: Account,
  ops: string[],
  onInternalError: (op: string, error: unknown) => void = () => undefined,
): Promise<{ status: number; body: OpResult[] }> {
  if (ops.length === 0) throw new KodoError(400, 'batch needs at least one op');
  if (ops.length > MAX_BATCH) throw new KodoError(400, `too many ops in one batch: ${ops.length} > ${MAX_BATCH}`);
  const results: OpResult[] = [];
  for (const op of ops) {
    try {
      results.push(await runOperation(objects, account, op));
    } catch (error) {
      if (error instanceof KodoError) {
        results.push({ code: error.status, data: { error: error.message } });
        continue;
      }
      onInternalError(op, error);
      results.push({ code: INTERNAL_ERROR, data: { error: internalErrorMessage(error) } });
    }
  }
  return { status: results.every((r) => r.code === 200) ? 200 : 298, body: results };
}

const servableMime = (mime: string): string => {
  assertServableMime(mime);
  return mime;
};
