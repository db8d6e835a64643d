import { KODO_BLOCK, etagOfBlocks } from './encoding';
import type { PartRow } from './metadata-store';

/**
 * The etag of parts laid end to end, from their recorded block hashes: possible when each part
 * but the last is a whole number of 4 MiB blocks (so blocks line up with the object's) and all
 * were hashed. Otherwise undefined, and the object is read once to hash it.
 */
export function etagOfParts(parts: readonly Pick<PartRow, 'size' | 'blocks'>[]): string | undefined {
  const hashes: Buffer[] = [];
  for (const [index, part] of parts.entries()) {
    if (!part.blocks) return undefined;
    if (index < parts.length - 1 && part.size % KODO_BLOCK !== 0) return undefined;
    if (part.size === 0 && parts.length > 1) continue;
    for (let offset = 0; offset < part.blocks.length; offset += 20) hashes.push(part.blocks.subarray(offset, offset + 20));
  }
  return hashes.length > 0 ? etagOfBlocks(hashes) : undefined;
}
