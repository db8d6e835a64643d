import { describe, expect, it } from 'vitest';
import { keepBothKeys, numberedKey } from './upload-conflicts';

describe('keep both: numbered names', () => {
  it.each([
    ['a.jpg', 1, 'a (1).jpg'],
    ['photos/2024/a.jpg', 2, 'photos/2024/a (2).jpg'],
    ['archive.tar.gz', 1, 'archive.tar (1).gz'],
    ['README', 3, 'README (3)'],
    ['cfg/.env', 1, 'cfg/.env (1)'],
    ['dots.in.dir/file', 1, 'dots.in.dir/file (1)'],
  ])('%s numbered %i is %s', (key, n, expected) => {
    expect(numberedKey(key, n)).toBe(expected);
  });

  it('takes the first number free in the bucket and in the batch, in few rounds', async () => {
    const bucket = new Set(['a (1).jpg', 'a (2).jpg', 'b (1).txt']);
    const asked: string[][] = [];
    const exists = async (keys: string[]) => {
      asked.push(keys);
      return new Set(keys.filter((k) => bucket.has(k)));
    };
    // "c (1).md" is itself one of the files uploaded in this batch.
    const chosen = await keepBothKeys(['a.jpg', 'b.txt', 'c.md'], new Set(['a.jpg', 'b.txt', 'c.md', 'c (1).md']), exists);
    expect(Object.fromEntries(chosen)).toEqual({ 'a.jpg': 'a (3).jpg', 'b.txt': 'b (2).txt', 'c.md': 'c (2).md' });
    expect(asked.length).toBe(3);
    expect(asked[0]).toEqual(['a (1).jpg', 'b (1).txt']);
  });

  it('gives up with a sentence rather than loop for ever', async () => {
    await expect(keepBothKeys(['x'], new Set(), async (keys) => new Set(keys), 3)).rejects.toThrow('no free name for x up to (3)');
  });
});
