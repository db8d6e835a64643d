import type { IncomingMessage } from 'node:http';
import { randomBytes } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import type { Account } from './auth';
import { hmacSha1B64 } from './encoding';
import type { MetadataStore } from './metadata-store';
import type { ObjectService } from './object-service';

const URL_QUOTA_DAY = 500;
const DIR_QUOTA_DAY = 10;
const PREFETCH_QUOTA_DAY = 1000;

export interface CdnDeps {
  db: MetadataStore;
  objects: ObjectService;
  clock: () => number;
  /** The emulator's origin as this request reached it (scheme and host), for links handed back. */
  publicUrl: (req?: IncomingMessage) => string;
}

export interface CdnReply {
  status: number;
  body: Record<string, unknown>;
}

function requestId(): string {
  return randomBytes(12).toString('hex');
}

function day(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** Domains of the account's buckets, to tell valid CDN URLs from invalid ones. */
function ownedDomains(db: MetadataStore, account: Account): Map<string, string> {
  const out = new Map<string, string>();
  for (const bucket of db.bucketsOf(account.accessKey)) for (const d of JSON.parse(bucket.domains) as string[]) out.set(d, bucket.name);
  return out;
}

function urlDomain(text: string): string | undefined {
  try {
    const u = new URL(text);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return undefined;
    return u.hostname;
  } catch {
    return undefined;
  }
}

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/** Keeps one task per URL or directory (the task lists answer them); the emulator's CDN is its origin, so each is done at once. */
function recordTasks(
  deps: CdnDeps,
  account: Account,
  kind: 'refresh' | 'prefetch',
  request: string,
  entries: { url: string; dir: boolean }[],
): Record<string, string> {
  const now = deps.clock();
  const rows = entries.map(({ url, dir }) => ({
    task_id: requestId(),
    owner: account.accessKey,
    kind,
    request_id: request,
    url,
    is_dir: dir ? 1 : 0,
    created: now,
  }));
  deps.db.addCdnTasks(rows);
  return Object.fromEntries(rows.map((row) => [row.url, row.task_id]));
}

/** Fusion's times: `YYYY-MM-DD HH:mm:ss` in China Standard Time. */
const fusionTime = (ms: number) => new Date(ms + 8 * 3_600_000).toISOString().slice(0, 19).replace('T', ' ');
const fromFusionTime = (text: string) => Date.parse(`${text.replace(' ', 'T')}+08:00`);

/**
 * /v2/tune/refresh/list and /v2/tune/prefetch/list: the account's tasks, newest first, filtered by
 * requestId, urls, state, isDir (refresh), startTime/endTime, in pages (pageNo from 0, pageSize
 * at most 100).
 */
export function taskList(deps: CdnDeps, account: Account, kind: 'refresh' | 'prefetch', body: Record<string, unknown>): CdnReply {
  const id = requestId();
  const fail = (error: string): CdnReply => ({ status: 400, body: { code: 400000, error, requestId: id } });
  const pageNo = body['pageNo'] === undefined ? 0 : Number(body['pageNo']);
  const pageSize = body['pageSize'] === undefined ? 100 : Number(body['pageSize']);
  if (!Number.isInteger(pageNo) || pageNo < 0) return fail('pageNo must be a whole number from 0');
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > 100) return fail('pageSize must be 1 to 100');
  const times: number[] = [];
  for (const name of ['startTime', 'endTime']) {
    const value = body[name];
    if (value === undefined || value === '') continue;
    const at =
      typeof value === 'string' && /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}(:\d{2})?$/.test(value)
        ? fromFusionTime(value.length === 16 ? `${value}:00` : value)
        : NaN;
    if (Number.isNaN(at)) return fail(`${name} must be YYYY-MM-DD HH:mm:ss`);
    times[name === 'startTime' ? 0 : 1] = at;
  }
  const state = body['state'];
  if (state !== undefined && state !== '' && !['processing', 'success', 'failure'].includes(String(state)))
    return fail('state must be processing, success or failure');
  const urls = stringList(body['urls']);
  const isDir = body['isDir'];
  const all = deps.db
    .cdnTasks(account.accessKey, kind)
    .filter(
      (task) =>
        (!body['requestId'] || task.request_id === body['requestId']) &&
        (urls.length === 0 || urls.includes(task.url)) &&
        (state === undefined || state === '' || state === 'success') &&
        (kind !== 'refresh' || isDir === undefined || isDir === '' || (isDir === 'yes') === (task.is_dir === 1)) &&
        (times[0] === undefined || task.created >= times[0]) &&
        (times[1] === undefined || task.created <= times[1]),
    );
  const items = all.slice(pageNo * pageSize, (pageNo + 1) * pageSize).map((task) => ({
    taskId: task.task_id,
    requestId: task.request_id,
    url: task.url,
    state: 'success',
    progress: 100,
    ...(kind === 'refresh' ? { isDir: task.is_dir === 1 ? 'yes' : 'no' } : {}),
    createAt: fusionTime(task.created),
    beginAt: fusionTime(task.created),
    endAt: fusionTime(task.created),
    stateDetail: '',
  }));
  return { status: 200, body: { code: 200, error: 'success', requestId: id, items, pageNo, pageSize, total: all.length } };
}

/** /v2/tune/refresh `{urls <= 100, dirs <= 10}`; directories need the account permission (400038). */
export function refresh(deps: CdnDeps, account: Account, body: Record<string, unknown>): CdnReply {
  const urls = stringList(body['urls']);
  const dirs = stringList(body['dirs']);
  const id = requestId();
  const today = day(deps.clock());
  const used = deps.db.quota(account.accessKey, today);
  const base = { requestId: id, urlQuotaDay: URL_QUOTA_DAY, dirQuotaDay: DIR_QUOTA_DAY };
  const fail = (code: number, error: string): CdnReply => ({
    status: 400,
    body: {
      code,
      error,
      ...base,
      taskIds: {},
      invalidUrls: null,
      invalidDirs: null,
      urlSurplusDay: URL_QUOTA_DAY - used.urls,
      dirSurplusDay: DIR_QUOTA_DAY - used.dirs,
    },
  });
  if (urls.length === 0 && dirs.length === 0) return fail(400000, 'urls and dirs are both empty');
  if (urls.length > 100) return fail(400034, `too many urls: ${urls.length} > 100`);
  if (dirs.length > 10) return fail(400034, `too many dirs: ${dirs.length} > 10`);
  if (dirs.length > 0 && !account.dirRefresh) return fail(400038, 'refresh dir is not allowed for this account');
  if (used.urls + urls.length > URL_QUOTA_DAY || used.dirs + dirs.length > DIR_QUOTA_DAY)
    return fail(400034, 'refresh quota of the day exceeded');
  const domains = ownedDomains(deps.db, account);
  const invalidUrls = urls.filter((u) => !domains.has(urlDomain(u) ?? ''));
  // A directory ends with '/' (a bare domain is its root).
  const invalidDirs = dirs.filter(
    (d) => !domains.has(urlDomain(d) ?? '') || !new URL(d).pathname.endsWith('/') || new URL(d).search !== '',
  );
  const validUrls = urls.filter((u) => !invalidUrls.includes(u));
  const validDirs = dirs.filter((d) => !invalidDirs.includes(d));
  deps.db.addQuota(account.accessKey, today, validUrls.length, validDirs.length);
  const taskIds = recordTasks(deps, account, 'refresh', id, [
    ...validUrls.map((url) => ({ url, dir: false })),
    ...validDirs.map((url) => ({ url, dir: true })),
  ]);
  const after = deps.db.quota(account.accessKey, today);
  const ok = invalidUrls.length === 0 && invalidDirs.length === 0;
  return {
    status: ok ? 200 : 400,
    body: {
      code: ok ? 200 : 400031,
      error: ok ? 'success' : 'invalid url or dir',
      ...base,
      taskIds,
      invalidUrls: invalidUrls.length ? invalidUrls : null,
      invalidDirs: invalidDirs.length ? invalidDirs : null,
      urlSurplusDay: URL_QUOTA_DAY - after.urls,
      dirSurplusDay: DIR_QUOTA_DAY - after.dirs,
    },
  };
}

/** /v2/tune/prefetch `{urls <= 100}`; the URL must name an object of a bucket of the account. */
export function prefetch(deps: CdnDeps, account: Account, body: Record<string, unknown>): CdnReply {
  const urls = stringList(body['urls']);
  const id = requestId();
  if (urls.length === 0 || urls.length > 100) {
    return {
      status: 400,
      body: {
        code: 400034,
        error: 'urls must hold 1 to 100 entries',
        requestId: id,
        taskIds: {},
        invalidUrls: null,
        quotaDay: PREFETCH_QUOTA_DAY,
        surplusDay: PREFETCH_QUOTA_DAY,
      },
    };
  }
  const domains = ownedDomains(deps.db, account);
  const invalidUrls = urls.filter((u) => {
    const bucket = domains.get(urlDomain(u) ?? '');
    if (!bucket) return true;
    const key = decodeURIComponent(new URL(u).pathname.slice(1));
    return !deps.objects.find(bucket, key);
  });
  const taskIds = recordTasks(
    deps,
    account,
    'prefetch',
    id,
    urls.filter((x) => !invalidUrls.includes(x)).map((url) => ({ url, dir: false })),
  );
  const ok = invalidUrls.length === 0;
  return {
    status: ok ? 200 : 400,
    body: {
      code: ok ? 200 : 400031,
      error: ok ? 'success' : 'invalid url',
      requestId: id,
      taskIds,
      invalidUrls: ok ? null : invalidUrls,
      quotaDay: PREFETCH_QUOTA_DAY,
      surplusDay: PREFETCH_QUOTA_DAY - urls.length,
    },
  };
}

const UNIT_MS: Record<string, number> = { min: 60_000, hour: 3_600_000, day: 86_400_000 };

/**
 * A granularity's slot length: Fusion documents 5min, hour and day, and answers a multiple of
 * a unit too (the qiniu Node SDK's own tests ask for `5hour`), so `<n>min|hour|day` is taken;
 * less than five minutes is not.
 */
function slotOf(granularity: string): number | undefined {
  const m = /^(\d*)(min|hour|day)$/.exec(granularity);
  if (!m) return undefined;
  const ms = (m[1] === '' ? 1 : Number(m[1])) * UNIT_MS[m[2]!]!;
  return ms >= 300_000 ? ms : undefined;
}

function timeLabel(ms: number): string {
  return new Date(ms).toISOString().replace('T', ' ').slice(0, 19);
}

/** /v2/tune/flux (bytes per slot) and /v2/tune/bandwidth (bits per second), from the download log. */
export function traffic(deps: CdnDeps, kind: 'flux' | 'bandwidth', body: Record<string, unknown>): CdnReply {
  const granularity = String(body['granularity'] ?? '');
  const slot = slotOf(granularity);
  const start = Date.parse(`${String(body['startDate'])}T00:00:00Z`);
  const end = Date.parse(`${String(body['endDate'])}T00:00:00Z`) + 86_400_000;
  const domains = String(body['domains'] ?? '')
    .split(';')
    .filter(Boolean);
  if (!slot)
    return { status: 400, body: { code: 400000, error: 'granularity must be 5min, hour or day (or a multiple of a unit, at least 5min)' } };
  if (Number.isNaN(start) || Number.isNaN(end) || end <= start)
    return { status: 400, body: { code: 400000, error: 'startDate/endDate must be YYYY-MM-DD with start <= end' } };
  if (domains.length === 0) return { status: 400, body: { code: 400000, error: 'domains is empty' } };
  if ((end - start) / slot > 100_000) return { status: 400, body: { code: 400000, error: 'date range too long for this granularity' } };
  const slots = Math.ceil((end - start) / slot);
  const time = Array.from({ length: slots }, (_, i) => timeLabel(start + i * slot));
  const data: Record<string, { china: number[]; oversea: number[] }> = {};
  for (const domain of domains) {
    const china = new Array<number>(slots).fill(0);
    for (const row of deps.db.downloads(domain, start, end)) china[Math.floor((row.at - start) / slot)]! += row.bytes;
    data[domain] = {
      china: kind === 'flux' ? china : china.map((bytes) => Math.round((bytes * 8) / (slot / 1000))),
      oversea: new Array<number>(slots).fill(0),
    };
  }
  return { status: 200, body: { code: 200, error: '', time, data } };
}

/** /v2/tune/log/list `{day, domains}`: one gzip log per hour with downloads, behind a signed link. */
export function logList(deps: CdnDeps, account: Account, body: Record<string, unknown>, req?: IncomingMessage): CdnReply {
  const dayText = String(body['day'] ?? '');
  const start = Date.parse(`${dayText}T00:00:00Z`);
  if (Number.isNaN(start)) return { status: 400, body: { code: 400000, error: 'day must be YYYY-MM-DD' } };
  const domains = String(body['domains'] ?? '')
    .split(';')
    .filter(Boolean);
  const data: Record<string, { name: string; size: number; mtime: number; url: string }[]> = {};
  const deadline = Math.floor(deps.clock() / 1000) + 3600;
  for (const domain of domains) {
    const hours = new Map<number, number>();
    for (const row of deps.db.downloads(domain, start, start + 86_400_000)) {
      const hour = new Date(row.at).getUTCHours();
      hours.set(hour, (hours.get(hour) ?? 0) + 1);
    }
    data[domain] = [...hours.keys()]
      .sort((a, b) => a - b)
      .map((hour) => {
        const name = `${domain}_${dayText}-${String(hour).padStart(2, '0')}_part-00000.gz`;
        const base = `${deps.publicUrl(req)}/cdnlogs/${encodeURIComponent(name)}?e=${deadline}`;
        return {
          name,
          size: renderLog(deps, domain, start + hour * 3_600_000).length,
          mtime: Math.floor((start + (hour + 1) * 3_600_000) / 1000),
          url: `${base}&token=${account.accessKey}:${hmacSha1B64(account.secretKey, base)}`,
        };
      });
  }
  return { status: 200, body: { code: 200, error: '', data } };
}

/** One hour of a domain's downloads in the CDN log line format, gzipped. */
export function renderLog(deps: CdnDeps, domain: string, hourStart: number): Buffer {
  const lines = deps.db.downloads(domain, hourStart, hourStart + 3_600_000).map((row) => {
    const when = new Date(row.at).toUTCString();
    return `127.0.0.1 HIT 0 [${when}] "GET http://${domain}${row.path} HTTP/1.1" ${row.status} ${row.bytes} "-" "-"`;
  });
  return gzipSync(lines.join('\n') + (lines.length ? '\n' : ''));
}

/** `<domain>_<YYYY-MM-DD>-<HH>_part-00000.gz` → domain and hour start. */
export function parseLogName(name: string): { domain: string; hourStart: number } | undefined {
  const m = /^(.+)_(\d{4}-\d{2}-\d{2})-(\d{2})_part-00000\.gz$/.exec(name);
  if (!m) return undefined;
  const hourStart = Date.parse(`${m[2]}T${m[3]}:00:00Z`);
  return Number.isNaN(hourStart) ? undefined : { domain: m[1]!, hourStart };
}
