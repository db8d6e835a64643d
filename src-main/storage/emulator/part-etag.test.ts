import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { KODO_BLOCK, kodoEtag } from './encoding';
import { etagOfParts } from './part-etag';

/** A part's row as the part route records it: the sha1 of each 4 MiB block from its start. */
function partOf(bytes: Buffer): { size: number; blocks: Buffer } {
  const hashes: Buffer[] = [];
  for (let offset = 0; offset < bytes.length || hashes.length === 0; offset += KODO_BLOCK) {
    hashes.push(
      createHash('sha1')
        .update(bytes.subarray(offset, offset + KODO_BLOCK))
        .digest(),
    );
  }
  return { size: bytes.length, blocks: Buffer.concat(hashes) };
}

describe('etagOfParts', () => {
  it('gives the object etag for parts of whole 4 MiB blocks and a short last part', () => {
    const parts = [randomBytes(KODO_BLOCK), randomBytes(2 * KODO_BLOCK), randomBytes(12345)];
    expect(etagOfParts(parts.map(partOf))).toBe(kodoEtag(Buffer.concat(parts)));
  });

  it('one small part is the one-block etag', () => {
    const only = randomBytes(1000);
    expect(etagOfParts([partOf(only)])).toBe(kodoEtag(only));
  });

  it('an empty last part adds no block', () => {
    const first = randomBytes(KODO_BLOCK);
    expect(etagOfParts([partOf(first), partOf(Buffer.alloc(0))])).toBe(kodoEtag(first));
  });

  it('refuses when blocks would not line up or a part is not hashed yet', () => {
    const odd = randomBytes(KODO_BLOCK + 1);
    expect(etagOfParts([partOf(odd), partOf(randomBytes(10))])).toBeUndefined();
    expect(etagOfParts([partOf(randomBytes(KODO_BLOCK)), { size: 10, blocks: null }])).toBeUndefined();
  });
});
