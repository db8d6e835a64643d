import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { Logger } from '../../platform/logger';
import type { BlobStore } from './blob-store';
import { decodeEntry } from './encoding';
import { IMAGE_COMMANDS, runImageCommand } from './image-ops';
import { MODERATION_COMMANDS, moderationNotEnabled } from './moderation';
import { publicMessage } from './internal-error';
import { KodoError } from './kodo-error';
import { MEDIA_COMMANDS, runMediaCommand, type MediaOutput } from './media-ops';
import type { MetadataStore } from './metadata-store';
import type { ObjectService } from './object-service';

export interface PfopItem {
  cmd: string;
  code: number;
  desc: string;
  error?: string;
  hash?: string;
  key?: string;
  keys?: string[];
  returnOld: number;
}

export interface PfopStatus {
  id: string;
  code: number;
  desc: string;
  inputBucket: string;
  inputKey: string;
  pipeline: string;
  reqid: string;
  creationDate: string;
  type: number;
  /** The workflow template that started the task, when one did. */
  taskFrom?: string;
  items: PfopItem[];
}

export interface PfopRequest {
  owner: string;
  bucket: string;
  key: string;
  fops: string;
  notifyURL?: string | undefined;
  pipeline?: string | undefined;
  type?: number | undefined;
  force?: boolean;
  /** Started by this workflow template (persistentWorkflowTemplateID, workflowTemplateID). */
  workflow?: string | undefined;
}

const DESC: Record<number, string> = {
  0: 'The fop was completed successfully',
  1: 'The fop is waiting for execution',
  2: 'The fop is executing now',
  3: 'The fop is failed',
  4: 'Callback failed',
};

/** Runs a command on bytes: image commands through sharp, media through ffmpeg. */
export async function runCommand(input: Buffer | string, command: string): Promise<MediaOutput> {
  const name = command.split('/')[0] ?? '';
  if (MODERATION_COMMANDS.has(name)) throw moderationNotEnabled(name);
  if (IMAGE_COMMANDS.has(name)) return runImageCommand(typeof input === 'string' ? await readFile(input) : input, command);
  if (MEDIA_COMMANDS.has(name)) return runMediaCommand(input, command);
  throw new KodoError(400, `unsupported processing command ${name}`);
}

/**
 * Persistent processing: tasks are recorded in SQLite, run one at a time in the background
 * (2 cores are shared), and their final status is POSTed to the notify URL.
 */
export class PersistentFop {
  private queue: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(
    private readonly deps: { db: MetadataStore; blobs: BlobStore; objects: ObjectService; clock: () => number; logger: Logger },
  ) {}

  start(request: PfopRequest): string {
    const id = `z0.${randomBytes(12).toString('hex')}`;
    const groups = request.fops
      .split(';')
      .map((g) => g.trim())
      .filter(Boolean);
    if (groups.length === 0) throw new KodoError(400, 'fops is empty');
    const status: PfopStatus = {
      id,
      code: 1,
      desc: DESC[1]!,
      inputBucket: request.bucket,
      inputKey: request.key,
      pipeline: request.pipeline ?? 'default',
      reqid: randomBytes(8).toString('hex'),
      creationDate: new Date(this.deps.clock()).toISOString(),
      type: request.type ?? 0,
      ...(request.workflow ? { taskFrom: request.workflow } : {}),
      items: groups.map((cmd) => ({ cmd, code: 1, desc: DESC[1]!, returnOld: 0 })),
    };
    this.deps.db.putTask(id, status);
    this.queue = this.queue
      .then(() => this.execute(status, request))
      .catch((error: unknown) => {
        this.deps.logger.error('pfop task crashed', { id, error });
      });
    return id;
  }

  status(id: string): PfopStatus | undefined {
    return this.deps.db.task(id) as PfopStatus | undefined;
  }

  /** Waits for queued tasks (tests and shutdown). */
  async idle(): Promise<void> {
    await this.queue;
  }

  close(): void {
    this.closed = true;
  }

  private async execute(status: PfopStatus, request: PfopRequest): Promise<void> {
    if (this.closed) return;
    status.code = 2;
    status.desc = DESC[2]!;
    this.deps.db.putTask(status.id, status);
    for (const item of status.items) {
      try {
        await this.runGroup(item, request);
        item.code = 0;
        item.desc = DESC[0]!;
      } catch (error) {
        item.code = 3;
        item.desc = DESC[3]!;
        item.error = publicMessage(error);
      }
    }
    status.code = status.items.every((i) => i.code === 0) ? 0 : 3;
    status.desc = DESC[status.code]!;
    this.deps.db.putTask(status.id, status);
    if (request.notifyURL) {
      try {
        const response = await fetch(request.notifyURL, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify(status),
          signal: AbortSignal.timeout(5000),
        });
        if (!response.ok) throw new Error(`notify URL replied ${response.status}`);
      } catch (error) {
        this.deps.logger.warn('pfop notify failed', { id: status.id, error: (error as Error).message });
        status.code = 4;
        status.desc = DESC[4]!;
        this.deps.db.putTask(status.id, status);
      }
    }
  }

  private async runGroup(item: PfopItem, request: PfopRequest): Promise<void> {
    const { objects, blobs } = this.deps;
    const source = objects.stat(request.bucket, request.key);
    // The first step reads the object's blob in place; later steps get the previous output.
    let data: Buffer | string = blobs.blobPath(source.blob);
    let output: MediaOutput | undefined;
    let target: { bucket: string; key: string | undefined } | undefined;
    for (const step of item.cmd
      .split('|')
      .map((s) => s.trim())
      .filter(Boolean)) {
      if (step.startsWith('saveas/')) {
        target = decodeEntry(step.slice('saveas/'.length));
        continue;
      }
      output = await runCommand(data, step);
      data = output.body;
    }
    if (!output || typeof data === 'string') throw new KodoError(400, 'no processing command in the group');
    let extras: { key: string; body: Buffer; contentType: string }[] = [];
    if (output.extras?.length) {
      // HLS segments are stored beside the playlist under names unique to it.
      const base = target?.key ?? randomBytes(6).toString('hex');
      const folder = base.includes('/') ? base.slice(0, base.lastIndexOf('/') + 1) : '';
      const stem = base.slice(folder.length).replace(/\.[^.]*$/, '');
      let playlist = data.toString('utf8');
      extras = output.extras.map((extra) => {
        const name = `${stem}-${extra.name}`;
        playlist = playlist.split(extra.name).join(name);
        return { key: folder + name, body: extra.body, contentType: extra.contentType };
      });
      data = Buffer.from(playlist);
    }
    const bucket = target?.bucket ?? request.bucket;
    objects.ownedBucket(bucket, request.owner);
    const staged = await blobs.stage([data]);
    const key = target?.key ?? staged.etag;
    const existing = objects.find(bucket, key);
    if (existing && !request.force) {
      await blobs.discard(staged.path);
      item.hash = existing.hash;
      item.key = key;
      item.returnOld = 1;
      return;
    }
    const row = await objects.commit({ bucket, key, staged, mime: output.contentType, overwrite: true });
    item.hash = row.hash;
    item.key = key;
    if (extras.length > 0) {
      item.keys = [];
      for (const extra of extras) {
        await objects.commit({ bucket, key: extra.key, staged: await blobs.stage([extra.body]), mime: extra.contentType, overwrite: true });
        item.keys.push(extra.key);
      }
    }
  }
}
