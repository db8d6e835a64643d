import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { openSealedFile } from './sealed-file';
import { createSealedRecordStore } from './sealed-record-store';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'record-store-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const key = randomBytes(32);
const open = () =>
  createSealedRecordStore({
    path: join(dir, 'things.json'),
    listKey: 'things',
    record: z.object({ id: z.string(), name: z.string() }),
    secrets: openSealedFile({ path: join(dir, 'things.sealed'), key: async () => key, label: 'things' }),
  });

describe('sealed record store', () => {
  it('keeps records in plain JSON and their secrets sealed; a record may have none', async () => {
    const store = open();
    const a = await store.add({ name: 'a' }, 'secret-of-a');
    const b = await store.add({ name: 'b' });
    expect(JSON.parse(await readFile(join(dir, 'things.json'), 'utf8'))).toEqual({ version: 1, things: [a, b] });
    expect((await readFile(join(dir, 'things.sealed'))).includes('secret-of-a')).toBe(false);

    const reopened = open();
    expect(await reopened.list()).toEqual([a, b]);
    expect(await reopened.secretOf(a.id)).toBe('secret-of-a');
    expect(await reopened.secretOf(b.id)).toBeUndefined();

    expect(await reopened.remove(a.id)).toBe(true);
    expect(await reopened.remove(a.id)).toBe(false);
    expect(await reopened.secretOf(a.id)).toBeUndefined();
    expect(await reopened.list()).toEqual([b]);
  });

  it('refuses a file of another shape rather than dropping its records', async () => {
    await writeFile(join(dir, 'things.json'), JSON.stringify({ version: 1, accounts: [] }));
    await expect(open().list()).rejects.toThrow(/things\.json is not a things file/);
  });
});
