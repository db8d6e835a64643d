import { createCipheriv, createDecipheriv, createHash } from 'node:crypto';

// go2rtc's WebTorrent shares: the tracker sees only the share's hash and sealed SDP. Each offer
// carries its own nonce (the offer id: nanoseconds since 1970 in base 36); the key is
// SHA-256(nonce:pwd), the GCM IV the first 12 bytes of SHA-256(share:nonce), the nonce the
// additional data. An offer older or newer than 12 hours is refused (replays; a skewed clock passes).

const MAX_SKEW_NS = 12n * 3600n * 1_000_000_000n;
const TAG_BYTES = 16;

export class ShareCipherError extends Error {
  override name = 'ShareCipherError';
}

/** The torrent info hash a share is announced under: base64 of SHA-256 of its name. */
export const shareInfoHash = (share: string) => createHash('sha256').update(share).digest('base64');

/** A fresh offer nonce: the time in nanoseconds, base 36. */
export const offerNonce = (now = Date.now()) => (BigInt(now) * 1_000_000n).toString(36);

function parseBase36(text: string): bigint | undefined {
  if (!/^[0-9a-z]{1,14}$/.test(text)) return undefined;
  let value = 0n;
  for (const char of text) value = value * 36n + BigInt(parseInt(char, 36));
  return value;
}

export interface ShareCipher {
  seal(plain: string): string;
  open(sealed: string): string;
}

export function shareCipher(share: string, pwd: string, nonce: string, now = Date.now()): ShareCipher {
  const stamp = parseBase36(nonce);
  if (stamp === undefined) throw new ShareCipherError(`offer id ${nonce.slice(0, 20)} is not a base-36 time`);
  const skew = stamp - BigInt(now) * 1_000_000n;
  if (skew > MAX_SKEW_NS || -skew > MAX_SKEW_NS)
    throw new ShareCipherError('offer id is more than 12 hours from now (a replay, or a clock far off)');
  const key = createHash('sha256').update(`${nonce}:${pwd}`).digest();
  const iv = createHash('sha256').update(`${share}:${nonce}`).digest().subarray(0, 12);
  const aad = Buffer.from(nonce);
  return {
    seal(plain) {
      const cipher = createCipheriv('aes-256-gcm', key, iv).setAAD(aad);
      return Buffer.concat([cipher.update(plain, 'utf8'), cipher.final(), cipher.getAuthTag()]).toString('base64');
    },
    open(sealed) {
      const bytes = Buffer.from(sealed, 'base64');
      if (bytes.length <= TAG_BYTES) throw new ShareCipherError('sealed SDP too short');
      const decipher = createDecipheriv('aes-256-gcm', key, iv).setAAD(aad);
      decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
      try {
        return Buffer.concat([decipher.update(bytes.subarray(0, bytes.length - TAG_BYTES)), decipher.final()]).toString('utf8');
      } catch {
        throw new ShareCipherError('the SDP does not open with this share and pwd');
      }
    },
  };
}
