import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { BlockHasher, EtagHasher, KODO_BLOCK, etagOfBlocks, kodoEtag } from './kodo-etag';

const sha1 = (data: Buffer) => createHash('sha1').update(data).digest();
const urlsafe = (data: Buffer) => data.toString('base64').replace(/\+/g, '-').replace(/\//g, '_');

describe('the Kodo etag', () => {
  it('hashes each 4 MiB block whatever the chunks it is fed in', () => {
    const data = randomBytes(2 * KODO_BLOCK + 1000);
    const hasher = new BlockHasher();
    for (let offset = 0; offset < data.length; offset += 999_983) hasher.update(data.subarray(offset, offset + 999_983));
    expect(hasher.finish()).toEqual([0, 1, 2].map((i) => sha1(data.subarray(i * KODO_BLOCK, (i + 1) * KODO_BLOCK))));
  });

  it('counts an empty body as one block of nothing, and a body of whole blocks as no more', () => {
    expect(new BlockHasher().finish()).toEqual([sha1(Buffer.alloc(0))]);
    const whole = new BlockHasher();
    whole.update(Buffer.alloc(KODO_BLOCK, 7));
    expect(whole.finish()).toEqual([sha1(Buffer.alloc(KODO_BLOCK, 7))]);
  });

  it('is 0x16 + sha1 up to one block, 0x96 + the sha1 of the block sha1s above it', () => {
    const small = Buffer.from('hello');
    expect(kodoEtag(small)).toBe(urlsafe(Buffer.concat([Buffer.from([0x16]), sha1(small)])));
    expect(kodoEtag(Buffer.alloc(0))).toBe('Fto5o-5ea0sNMlW_75VgGJCv2AcJ');
    const big = randomBytes(KODO_BLOCK + 5);
    const blocks = [sha1(big.subarray(0, KODO_BLOCK)), sha1(big.subarray(KODO_BLOCK))];
    expect(kodoEtag(big)).toBe(urlsafe(Buffer.concat([Buffer.from([0x96]), sha1(Buffer.concat(blocks))])));
    expect(etagOfBlocks(blocks)).toBe(kodoEtag(big));
    const fed = new EtagHasher();
    fed.update(big.subarray(0, 3));
    fed.update(big.subarray(3));
    expect(fed.digest()).toBe(kodoEtag(big));
  });
});
