import { randomBytes } from 'node:crypto';
import type { Logger } from '../../platform/logger';
import type { Account } from './auth';
import type { BlobStore } from './blob-store';
import { postCallback } from './callback-post';
import { hmacSha1B64 } from './encoding';
import { publicMessage } from './internal-error';
import { KodoError } from './kodo-error';
import { mimeFromName } from './mime-guess';
import type { ObjectService } from './object-service';
import { expandTemplate } from './upload-completion';

/** The JSON body of POST /sisyphus/fetch. */
interface FetchJob {
  url: string;
  bucket: string;
  key?: string;
  md5?: string;
  etag?: string;
  callbackurl?: string;
  callbackbody?: string;
  callbackbodytype?: string;
  callbackhost?: string;
  file_type?: number;
  ignore_same_key?: boolean;
}

interface Task {
  id: string;
  job: FetchJob;
  owner: Account;
  /** Done (fetched, or given up): the status query answers wait -1. */
  done: boolean;
  error?: string;
}

export interface AsyncFetchDeps {
  objects: ObjectService;
  blobs: BlobStore;
  logger: Logger;
}

const optionalString = (body: Record<string, unknown>, name: string): string | undefined => {
  const value = body[name];
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string') throw new KodoError(400, `${name} must be a string`);
  return value;
};

const stored = (objects: ObjectService, bucket: string, key: string): boolean => {
  try {
    objects.stat(bucket, key);
    return true;
  } catch {
    return false;
  }
};

/**
 * Asynchronous fetch (`/sisyphus/fetch`): a job is queued and answered at once with its id and
 * the number of jobs ahead of it; one worker fetches them in order (each source URL of a
 * `;`-separated list until one answers), checks md5/etag when given, stores the object and
 * POSTs the callback. The status query answers `wait` -1 once a job is finished. Jobs live in
 * memory: a restart forgets the queue, as a lost worker would.
 */
export class AsyncFetch {
  private readonly tasks = new Map<string, Task>();
  private readonly queue: Task[] = [];
  private running = false;

  constructor(private readonly deps: AsyncFetchDeps) {}

  submit(owner: Account, body: Record<string, unknown>): { id: string; wait: number } {
    const url = optionalString(body, 'url');
    const bucket = optionalString(body, 'bucket');
    if (!url) throw new KodoError(400, 'url is required');
    if (!bucket) throw new KodoError(400, 'bucket is required');
    for (const source of url.split(';'))
      if (!/^https?:\/\/[^/\s]+/.test(source)) throw new KodoError(400, `invalid url ${source}: expected http(s)://host/...`);
    this.deps.objects.ownedBucket(bucket, owner.accessKey);
    const fileType = body.file_type === undefined ? 0 : Number(body.file_type);
    if (![0, 1, 2, 3].includes(fileType)) throw new KodoError(400, 'file_type must be 0, 1, 2 or 3');
    const job: FetchJob = {
      url,
      bucket,
      key: optionalString(body, 'key'),
      md5: optionalString(body, 'md5'),
      etag: optionalString(body, 'etag'),
      callbackurl: optionalString(body, 'callbackurl'),
      callbackbody: optionalString(body, 'callbackbody'),
      callbackbodytype: optionalString(body, 'callbackbodytype'),
      callbackhost: optionalString(body, 'callbackhost'),
      file_type: fileType,
      ignore_same_key: body.ignore_same_key === true,
    };
    const task: Task = { id: `${Date.now().toString(36)}${randomBytes(12).toString('hex')}`, job, owner, done: false };
    this.tasks.set(task.id, task);
    const wait = this.queue.length;
    this.queue.push(task);
    void this.drain();
    return { id: task.id, wait };
  }

  status(id: string): { id: string; wait: number } {
    const task = this.tasks.get(id);
    if (!task) throw new KodoError(612, 'no such fetch task');
    return { id, wait: task.done ? -1 : this.queue.indexOf(task) };
  }

  /** Resolves when the queue is empty (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.running) await new Promise((done) => setTimeout(done, 10));
  }

  private async drain(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      for (let task = this.queue[0]; task; task = this.queue[0]) {
        try {
          await this.run(task);
        } catch (error) {
          task.error = publicMessage(error);
          this.deps.logger.warn('async fetch failed', { id: task.id, error: task.error });
        }
        task.done = true;
        this.queue.shift();
      }
    } finally {
      this.running = false;
    }
  }

  private async run(task: Task): Promise<void> {
    const { job } = task;
    const { objects, blobs } = this.deps;
    if (job.key && job.ignore_same_key && stored(objects, job.bucket, job.key)) return;
    let lastError = 'no source answered';
    for (const source of job.url.split(';')) {
      const response = await fetch(source, { signal: AbortSignal.timeout(60_000) }).catch((error: Error) => {
        lastError = `${source}: ${error.message}`;
        return undefined;
      });
      if (!response?.ok || !response.body) {
        if (response) lastError = `${source} replied ${response.status}`;
        continue;
      }
      const staged = await blobs.stage(response.body as unknown as AsyncIterable<Buffer>);
      if ((job.md5 && staged.md5 !== job.md5.toLowerCase()) || (job.etag && staged.etag !== job.etag)) {
        await blobs.discard(staged.path);
        throw new Error(`${source}: the content does not match the md5/etag given`);
      }
      const key = job.key ?? staged.etag;
      const mime = response.headers.get('content-type')?.split(';')[0] || mimeFromName(key) || 'application/octet-stream';
      const row = await objects.commit({ bucket: job.bucket, key, staged, mime, overwrite: true, fileType: job.file_type });
      if (job.callbackurl)
        await this.callback(task, { key: row.key, etag: row.hash, fsize: String(row.fsize), mimeType: row.mime, bucket: row.bucket });
      return;
    }
    throw new Error(lastError);
  }

  private async callback(task: Task, values: Record<string, string>): Promise<void> {
    const { job, owner } = task;
    const type = job.callbackbodytype ?? 'application/x-www-form-urlencoded';
    const body = expandTemplate(job.callbackbody ?? '', (name) => values[name], type === 'application/json' ? 'json' : 'form');
    const url = new URL(job.callbackurl!);
    const signed = url.pathname + url.search + '\n' + (type === 'application/x-www-form-urlencoded' ? body : '');
    const headers: Record<string, string> = {
      'Content-Type': type,
      Authorization: `QBox ${owner.accessKey}:${hmacSha1B64(owner.secretKey, signed)}`,
    };
    if (job.callbackhost) headers.Host = job.callbackhost;
    const { status } = await postCallback(url, headers, body, 5000);
    if (status !== 200) throw new Error(`callback to ${url.host} answered ${status}`);
  }
}
