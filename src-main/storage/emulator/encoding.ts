import { createHash, createHmac } from 'node:crypto';

/** Standard base64 with `+/` turned into `-_`, padding kept (what every Kodo SDK sends). */
export function urlsafeB64Encode(data: string | Buffer): string {
  return Buffer.from(data).toString('base64').replace(/\+/g, '-').replace(/\//g, '_');
}

export function urlsafeB64Decode(text: string): Buffer {
  return Buffer.from(text.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
}

export function hmacSha1B64(secret: string, data: string | Buffer): string {
  return urlsafeB64Encode(createHmac('sha1', secret).update(data).digest());
}

/** `entry` = urlsafeB64(`bucket:key`); keys may contain colons, so split on the FIRST one. */
export function decodeEntry(entry: string): { bucket: string; key: string | undefined } {
  const text = urlsafeB64Decode(entry).toString('utf8');
  const at = text.indexOf(':');
  if (at < 0) return { bucket: text, key: undefined };
  return { bucket: text.slice(0, at), key: text.slice(at + 1) };
}

export const KODO_BLOCK = 4 * 1024 * 1024;

/**
 * The Kodo etag, fed incrementally: up to one 4 MiB block it is 0x16 + sha1(data); above it,
 * 0x96 + sha1(sha1(block1) + sha1(block2) + ...).
 */
export class EtagHasher {
  private readonly blockHashes: Buffer[] = [];
  private current = createHash('sha1');
  private inBlock = 0;

  update(chunk: Buffer): void {
    let offset = 0;
    while (offset < chunk.length) {
      const take = Math.min(KODO_BLOCK - this.inBlock, chunk.length - offset);
      this.current.update(chunk.subarray(offset, offset + take));
      this.inBlock += take;
      offset += take;
      if (this.inBlock === KODO_BLOCK) {
        this.blockHashes.push(this.current.digest());
        this.current = createHash('sha1');
        this.inBlock = 0;
      }
    }
  }

  digest(): string {
    if (this.inBlock > 0 || this.blockHashes.length === 0) this.blockHashes.push(this.current.digest());
    if (this.blockHashes.length === 1) return urlsafeB64Encode(Buffer.concat([Buffer.from([0x16]), this.blockHashes[0]!]));
    const outer = createHash('sha1');
    for (const hash of this.blockHashes) outer.update(hash);
    return urlsafeB64Encode(Buffer.concat([Buffer.from([0x96]), outer.digest()]));
  }
}

export function kodoEtag(data: Buffer): string {
  const hasher = new EtagHasher();
  hasher.update(data);
  return hasher.digest();
}

/** `YYYYMMDDTHHmmssZ` as sent in X-Qiniu-Date → epoch ms, or NaN. */
export function parseQiniuDate(text: string): number {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(text);
  if (!m) return NaN;
  return Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6]));
}
