import { createHash } from 'node:crypto';

/** Kodo hashes data in blocks of 4 MiB. */
export const KODO_BLOCK = 4 * 1024 * 1024;

const urlsafe = (data: Buffer) => data.toString('base64').replace(/\+/g, '-').replace(/\//g, '_');

/**
 * The sha1 of each 4 MiB block of what is fed, in order: the etag's input. The emulator's digest
 * thread keeps these for a part (so an object's etag can be made from its parts' blocks).
 */
export class BlockHasher {
  private readonly hashes: Buffer[] = [];
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
        this.hashes.push(this.current.digest());
        this.current = createHash('sha1');
        this.inBlock = 0;
      }
    }
  }

  /** Every block's sha1, the last partial block's included (an empty body is one block of nothing); ends the hashing. */
  finish(): Buffer[] {
    if (this.inBlock > 0 || this.hashes.length === 0) this.hashes.push(this.current.digest());
    return this.hashes;
  }
}

/**
 * The Kodo etag (qetag), fed incrementally: up to one 4 MiB block it is 0x16 + sha1(data);
 * above it, 0x96 + sha1(sha1(block1) + sha1(block2) + ...). The emulator computes it for what
 * it stores; the client for what it sent, to check an upload end to end.
 */
export class EtagHasher {
  private readonly blocks = new BlockHasher();

  update(chunk: Buffer): void {
    this.blocks.update(chunk);
  }

  digest(): string {
    return etagOfBlocks(this.blocks.finish());
  }
}

/** The etag from the sha1 of each 4 MiB block, in order (an empty body is one block of nothing). */
export function etagOfBlocks(blockHashes: readonly Buffer[]): string {
  if (blockHashes.length === 1) return urlsafe(Buffer.concat([Buffer.from([0x16]), blockHashes[0]!]));
  const outer = createHash('sha1');
  for (const hash of blockHashes) outer.update(hash);
  return urlsafe(Buffer.concat([Buffer.from([0x96]), outer.digest()]));
}

export function kodoEtag(data: Buffer): string {
  const hasher = new EtagHasher();
  hasher.update(data);
  return hasher.digest();
}
