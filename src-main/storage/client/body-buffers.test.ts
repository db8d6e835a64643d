import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createBodyBuffers } from './body-buffers';

const CAPACITY = 1024 * 1024;
const bytes = (size: number, seed: number) => Buffer.from(Array.from({ length: size }, (_, i) => (i * 7 + seed) & 0xff));

describe('upload body buffers', () => {
  let dir: string;
  beforeEach(async () => void (dir = await mkdtemp(join(tmpdir(), 'bodies-'))));
  afterEach(async () => rm(dir, { recursive: true, force: true }));

  const file = async (name: string, content: Buffer) => {
    const path = join(dir, name);
    await writeFile(path, content);
    return path;
  };

  it('reads a file into a buffer that the next upload gets again once it is given back', async () => {
    const bodies = createBodyBuffers(CAPACITY);
    const a = bytes(600_000, 1);
    const first = await bodies.read(await file('a', a), a.length);
    expect(first.bytes.equals(a)).toBe(true);
    const buffer = first.bytes.buffer;
    first.release();
    const b = bytes(400_000, 2);
    const second = await bodies.read(await file('b', b), b.length);
    expect(second.bytes.buffer).toBe(buffer);
    expect(second.bytes.equals(b)).toBe(true);
  });

  it('never hands a buffer still being sent to another upload', async () => {
    const bodies = createBodyBuffers(CAPACITY);
    const a = bytes(500_000, 3);
    const b = bytes(500_000, 4);
    const first = await bodies.read(await file('a', a), a.length);
    const second = await bodies.read(await file('b', b), b.length);
    expect(second.bytes.buffer).not.toBe(first.bytes.buffer);
    expect(first.bytes.equals(a)).toBe(true);
    expect(second.bytes.equals(b)).toBe(true);
  });

  it('sends a file as it is on disk, whatever size it was said to have, and reads a larger one whole', async () => {
    const bodies = createBodyBuffers(CAPACITY);
    const grown = bytes(700_000, 5);
    expect((await bodies.read(await file('grown', grown), 300_000)).bytes.equals(grown)).toBe(true);
    const large = bytes(CAPACITY + 10, 6);
    expect((await bodies.read(await file('large', large), 300_000)).bytes.equals(large)).toBe(true);
    const small = bytes(1000, 7);
    expect((await bodies.read(await file('small', small), small.length)).bytes.equals(small)).toBe(true);
  });

  it('says what went wrong for a file that is not there', async () => {
    await expect(createBodyBuffers(CAPACITY).read(join(dir, 'missing'), 500_000)).rejects.toThrow(/ENOENT/);
  });
});
