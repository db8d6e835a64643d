import { randomBytes } from 'node:crypto';
import type { Logger } from '../../platform/logger';
import type { SettingValue } from './setting-value';
import { postCallback } from './callback-post';
import type { MetadataStore, ObjectRow } from './metadata-store';

/** Kodo's event types (developer.qiniu.com/kodo/8610). */
export type ObjectEventName = 'put' | 'copy' | 'append' | 'move' | 'delete' | 'mkfile' | 'disable' | 'enable' | 'restore:completed';

export interface ObjectEvent {
  event: ObjectEventName;
  /** The object as it is after the event (before it, for delete). */
  row: ObjectRow;
  /** copy and move: where the object went. */
  dest?: { bucket: string; key: string };
  /** The account that made the change. */
  accessKey: string;
}

const MAX_ATTEMPTS = 3;

const list = (value: string | number | string[] | undefined): string[] =>
  value === undefined ? [] : (Array.isArray(value) ? value : String(value).split(';')).map((v) => v.trim()).filter(Boolean);

/**
 * Delivers the bucket event notifications whose rules (`/events/add`) match an object event:
 * its type is among the rule's, the key starts with its prefix and ends with its suffix. Each
 * of the rule's callback URLs gets Kodo's message (`{Message: "<event JSON>", Subject,
 * Timestamp}`) by POST, with the rule's Host header when it names one, after the operation
 * has answered (events are asynchronous, as on Kodo). A delivery that fails is tried again
 * (three tries, one and two seconds apart), then logged and dropped.
 */
export class EventNotifier {
  private readonly queue: { url: string; host?: string; body: string }[] = [];
  private running: Promise<void> | null = null;

  constructor(
    private readonly db: MetadataStore,
    private readonly logger: Logger,
    private readonly clock: () => number,
    private readonly retryDelayMs = 1000,
  ) {}

  publish(change: ObjectEvent): void {
    const { row } = change;
    const rules = this.db.settings<SettingValue>(row.bucket, 'events');
    for (const rule of rules) {
      if (!list(rule['event']).includes(change.event)) continue;
      const prefix = typeof rule['prefix'] === 'string' ? rule['prefix'] : '';
      const suffix = typeof rule['suffix'] === 'string' ? rule['suffix'] : '';
      if (!row.key.startsWith(prefix) || !row.key.endsWith(suffix)) continue;
      const body = this.message(change);
      const host = typeof rule['host'] === 'string' && rule['host'] !== '' ? rule['host'] : undefined;
      for (const url of list(rule['callbackURL'] ?? rule['callbackUrl'])) this.queue.push({ url, ...(host ? { host } : {}), body });
    }
    if (this.queue.length > 0) this.running ??= this.drain().finally(() => (this.running = null));
  }

  /** Resolves when every queued notification has been delivered or given up. */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  private message(change: ObjectEvent): string {
    const { row } = change;
    const now = this.clock();
    const event = {
      event: change.event,
      // Nanoseconds, as Kodo writes the event time.
      time: Number(BigInt(now) * 1_000_000n),
      reqid: randomBytes(12).toString('base64url'),
      source_ip: '127.0.0.1',
      access_key: change.accessKey,
      bucket: row.bucket,
      key: row.key,
      fsize: row.fsize,
      hash: row.hash,
      ftype: row.type,
      mimetype: row.mime,
      ...(change.dest ? { dest_bucket: change.dest.bucket, dest_key: change.dest.key } : {}),
    };
    return JSON.stringify({ Message: JSON.stringify(event), Subject: 'Qiniu KODO Notification', Timestamp: new Date(now).toISOString() });
  }

  private async drain(): Promise<void> {
    for (let item = this.queue.shift(); item; item = this.queue.shift()) {
      let last = '';
      for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt += 1) {
        try {
          const headers: Record<string, string> = { 'Content-Type': 'application/json' };
          if (item.host) headers['Host'] = item.host;
          const { status } = await postCallback(new URL(item.url), headers, item.body, 5000);
          if (status >= 200 && status < 300) {
            last = '';
            break;
          }
          last = `answered ${status}`;
        } catch (error) {
          last = (error as Error).message;
        }
        if (attempt < MAX_ATTEMPTS) await new Promise((done) => setTimeout(done, this.retryDelayMs * attempt));
      }
      if (last) this.logger.warn('bucket event notification not delivered', { url: item.url, reason: last });
    }
  }
}
