import { createHmac, timingSafeEqual } from 'node:crypto';

// HMAC signatures for what the emulator hands out (access tokens, delta tokens): a client can
// read them but not forge or alter them. The key lives in the emulator's database.

export function hmac(key: Buffer, data: string): string {
  return createHmac('sha256', key).update(data).digest('base64url');
}

export function sameSignature(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export const toBase64Url = (value: unknown): string => Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');

export function fromBase64Url(text: string): unknown {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return undefined;
  try {
    return JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}
