import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openSpool, type UploadTarget } from './spool';
import { segmentsToDrop } from './spool-bounds';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});
const tempDir = async () => {
  const dir = await mkdtemp(join(tmpdir(), 'recordings-spool-'));
  dirs.push(dir);
  return dir;
};

const target = (stream: string, key: string): UploadTarget => ({
  stream,
  account: 'local',
  bucket: 'b',
  key,
  metadata: { 'x-qn-meta-start': 's' },
  startMs: 1,
  endMs: 2,
  durationMs: 1,
  codecs: 'avc1',
  initId: 'i',
});

describe('recording spool', () => {
  it('keeps finished segments across a restart, oldest first, and drops what a kill -9 left half done', async () => {
    const dir = await tempDir();
    const spool = await openSpool(dir);
    for (const key of ['k1', 'k2']) {
      const file = spool.begin('cam');
      file.write(Buffer.from(`${key} bytes `));
      file.write(Buffer.from('more'));
      await file.finish(target('cam', key));
    }
    const open = spool.begin('cam');
    open.write(Buffer.from('the open segment'));
    const folder = join(dir, (await readdir(dir))[0]!);
    await vi.waitFor(async () => expect((await readdir(folder)).some((name) => name.endsWith('.part'))).toBe(true));
    // The process dies here: the open segment never finishes.
    await writeFile(join(folder, '000000000000009-000000.json'), JSON.stringify(target('cam', 'killed before its rename')));
    await writeFile(join(folder, '000000000000010-000000.mp4'), 'killed before its json');

    const again = await openSpool(dir);
    expect(again.streams()).toEqual(['cam']);
    const entries = again.entries('cam');
    expect(entries.map((e) => [e.target.key, e.bytes])).toEqual([
      ['k1', 13],
      ['k2', 13],
    ]);
    expect((await readdir(folder)).sort()).toEqual(entries.flatMap((e) => [`${e.id}.json`, `${e.id}.mp4`]).sort());
    await again.remove(entries[0]!);
    expect(again.entries('cam').map((e) => e.target.key)).toEqual(['k2']);
    expect((await readdir(folder)).length).toBe(2);
  });

  it('keeps each stream apart, whatever its name holds', async () => {
    const spool = await openSpool(await tempDir());
    for (const stream of ['../escape', 'cam']) {
      const file = spool.begin(stream);
      file.write(Buffer.from('x'));
      await file.finish(target(stream, `${stream}-key`));
    }
    expect(spool.entries('../escape').map((e) => e.target.key)).toEqual(['../escape-key']);
    expect(spool.entries('../escape')[0]!.file.startsWith(spool.dir)).toBe(true);
    expect(spool.streams().sort()).toEqual(['../escape', 'cam']);
  });

  it('drops the oldest segments beyond the limit, never the one being uploaded', () => {
    const entries = [
      { id: 'a', bytes: 40, busy: true },
      { id: 'b', bytes: 40 },
      { id: 'c', bytes: 40 },
      { id: 'd', bytes: 40 },
    ];
    expect(segmentsToDrop(entries, 100)).toEqual(['b', 'c']);
    expect(segmentsToDrop(entries, 160)).toEqual([]);
  });
});
