import { createHmac } from 'node:crypto';

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

export { EtagHasher, KODO_BLOCK, etagOfBlocks, kodoEtag } from '../kodo-etag';

/** `YYYYMMDDTHHmmssZ` as sent in X-Qiniu-Date → epoch ms, or NaN. */
export function parseQiniuDate(text: string): number {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(text);
  if (!m) return NaN;
  return Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6]));
}
