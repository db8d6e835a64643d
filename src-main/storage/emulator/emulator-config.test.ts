import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { parseStorageSection } from './emulator-config';
import { decodeEntry, kodoEtag, urlsafeB64Encode } from './encoding';
import { thumbnailSize } from './image-ops';
import { parseRange } from './download-routes';

describe('storage.emulator config', () => {
  it('defaults: enabled on 127.0.0.1:1985, no accounts (demo)', () => {
    expect(parseStorageSection(undefined)).toMatchObject({ enabled: true, listen: '127.0.0.1:1985' });
  });

  it('names the bad key in the error', () => {
    expect(() => parseStorageSection({ emulator: { accounts: [{ access_key: 'a', secret_key: '', buckets: [] }] } })).toThrow(
      /storage\.emulator\.accounts\.0\.secret_key/,
    );
    expect(() => parseStorageSection({ emulator: { listen: 'nope' } })).toThrow(/storage\.emulator\.listen/);
    expect(() => parseStorageSection({ emulator: { acounts: [] } })).toThrow(/storage\.emulator/);
  });
});

describe('encodings', () => {
  it('etag: small data, over 4 MiB, empty', () => {
    const small = Buffer.from('hello');
    expect(kodoEtag(small)).toBe(urlsafeB64Encode(Buffer.concat([Buffer.from([0x16]), createHash('sha1').update(small).digest()])));
    const big = Buffer.alloc(4 * 1024 * 1024 + 1, 7);
    const blocks = [big.subarray(0, 4 * 1024 * 1024), big.subarray(4 * 1024 * 1024)].map((b) => createHash('sha1').update(b).digest());
    const expected = urlsafeB64Encode(Buffer.concat([Buffer.from([0x96]), createHash('sha1').update(Buffer.concat(blocks)).digest()]));
    expect(kodoEtag(big)).toBe(expected);
    expect(kodoEtag(Buffer.alloc(0))).toBe('Fto5o-5ea0sNMlW_75VgGJCv2AcJ');
  });

  it('entries split on the first colon', () => {
    expect(decodeEntry(urlsafeB64Encode('b:k:with:colons'))).toEqual({ bucket: 'b', key: 'k:with:colons' });
    expect(decodeEntry(urlsafeB64Encode('b'))).toEqual({ bucket: 'b', key: undefined });
  });

  it('anti-leech known answer of the reference', () => {
    expect(
      createHash('md5')
        .update('encryptKey' + '/qiniu.mp4' + (20).toString(16))
        .digest('hex'),
    ).toBe('1a530a8baafe126145f49cb738a50c09');
  });

  it('ranges and thumbnail specs', () => {
    expect(parseRange('bytes=0-0', 10)).toEqual({ start: 0, end: 0 });
    expect(parseRange('bytes=5-100', 10)).toEqual({ start: 5, end: 9 });
    expect(parseRange('bytes=10-', 10)).toBe('invalid');
    expect(thumbnailSize('100x', 200, 100)).toEqual({ width: 100, height: 50 });
    expect(thumbnailSize('!200x200r', 200, 100)).toEqual({ width: 400, height: 200 });
    expect(thumbnailSize('300x300>', 200, 100)).toBeUndefined();
    expect(thumbnailSize('50x50!', 200, 100)).toEqual({ width: 50, height: 50 });
  });
});
