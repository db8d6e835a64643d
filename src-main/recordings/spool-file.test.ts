import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { appendToNewFile } from './spool-file';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});
const tempDir = async () => {
  const dir = await mkdtemp(join(tmpdir(), 'recordings-spool-file-'));
  dirs.push(dir);
  return dir;
};

describe('a spool file appended to', () => {
  it('holds every piece in the order given, its folder made when missing', async () => {
    const folder = join(await tempDir(), 'stream');
    const file = appendToNewFile(join(folder, 'a.part'), folder);
    // Written before the file is open, and while writes are under way: all in order.
    for (let i = 0; i < 50; i++) file.write([Buffer.from(`${i},`), Buffer.from(i % 2 ? 'odd;' : 'even;')]);
    await file.finish();
    const expected = Array.from({ length: 50 }, (_, i) => `${i},${i % 2 ? 'odd;' : 'even;'}`).join('');
    expect(await readFile(join(folder, 'a.part'), 'utf8')).toBe(expected);
  });

  it('fails its finish when the file cannot be made, and closes quietly after', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'not-a-folder'), 'x');
    const file = appendToNewFile(join(dir, 'not-a-folder', 'a.part'), join(dir, 'not-a-folder'));
    file.write([Buffer.from('lost')]);
    await expect(file.finish()).rejects.toThrow(/ENOTDIR/);
    await expect(file.close()).resolves.toBeUndefined();
  });

  it('closes as it stands when abandoned, with what was written so far', async () => {
    const dir = await tempDir();
    const file = appendToNewFile(join(dir, 'b.part'), dir);
    file.write([Buffer.from('kept')]);
    await file.close();
    file.write([Buffer.from('after the close')]);
    expect(['', 'kept']).toContain(await readFile(join(dir, 'b.part'), 'utf8'));
  });

  it('abandoned while its file is still being opened: the close waits for the open and closes that descriptor', async () => {
    const dir = await tempDir();
    // Open descriptors, where the system lists them (Linux).
    const descriptors = () => (process.platform === 'linux' ? readdirSync('/proc/self/fd').length : 0);
    const before = descriptors();
    // Closed in the same turn as made: the open has not called back yet.
    for (let i = 0; i < 20; i++) await appendToNewFile(join(dir, `c${i}.part`), dir).close();
    for (let i = 0; i < 20; i++) expect(existsSync(join(dir, `c${i}.part`))).toBe(true);
    expect(descriptors()).toBeLessThanOrEqual(before + 2);
  });
});
