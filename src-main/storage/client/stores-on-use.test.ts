import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TransferStatus } from '@shared/contract/transfers';
import { startEngine, type Engine } from '@main/engine/engine';
import { configSchemas } from '@main/engine/modules';
import type { TestEngine } from '@main/engine/test-engine';
import { freePort } from '@main/test-support/free-port';
import { restartStorage, startStorage } from '../test-support';
import { createStorageClientModule } from './storage-client-module';

// The storage client's two SQLite files, the folder index and the transfer queue, are made by
// their first use, not at start: an engine whose storage is never used holds neither open.

type Answer<T> = { ok: true; value: T } | { ok: false; error: { code: string; message: string } };

const storageDir = (running: TestEngine) => join(running.dir, 'data', 'storage');
const queueFile = (running: TestEngine) => join(storageDir(running), 'transfers', 'queue.sqlite');
const indexFile = (running: TestEngine) => join(storageDir(running), 'index.sqlite');
const folder = { accountId: 'local', bucket: 'photos', prefix: '' };

function callsOf(engine: Engine) {
  return <T>(service: string, method: string, input?: unknown) => engine.services.call(service, method, input) as Promise<Answer<T>>;
}

describe('the storage client’s stores', () => {
  let running: TestEngine | undefined;
  let spare: string | undefined;
  afterEach(async () => {
    await running?.stop();
    running = undefined;
    if (spare) await rm(spare, { recursive: true, force: true });
    spare = undefined;
  });

  it('makes no database at start: the first browse opens the folder index, the first transfer the queue', async () => {
    running = (await startStorage()).running;
    const call = callsOf(running.engine);
    expect(existsSync(indexFile(running))).toBe(false);
    expect(existsSync(queueFile(running))).toBe(false);

    // The transfers page reads an empty queue and its settings without making the file.
    expect(await call('transfers', 'list')).toEqual({ ok: true, value: [] });
    expect(await call('transfers', 'settings')).toMatchObject({ ok: true, value: { concurrency: 3 } });
    expect(existsSync(queueFile(running))).toBe(false);

    // Two reads of a folder racing to be first share one open index.
    const [status, sorted] = await Promise.all([
      call('storage', 'indexStatus', folder),
      call('storage', 'listSorted', { ...folder, offset: 0, limit: 50 }),
    ]);
    expect(status).toMatchObject({ ok: true, value: { state: 'none', listed: 0 } });
    expect(sorted).toEqual({ ok: true, value: { entries: [], total: 0, offset: 0 } });
    expect(existsSync(indexFile(running))).toBe(true);
    expect(existsSync(queueFile(running))).toBe(false);

    const added = await call<TransferStatus[]>('transfers', 'addUploads', {
      ...folder,
      files: [{ relativePath: 'later.bin', size: 4 }],
    });
    expect(added).toMatchObject({ ok: true, value: [{ name: 'later.bin', state: 'receiving' }] });
    expect(existsSync(queueFile(running))).toBe(true);
  });

  it('opens a queue an earlier run left at start, and goes on with its transfer', async () => {
    running = (await startStorage(await freePort())).running;
    const before = callsOf(running.engine);
    await before('transfers', 'setConcurrency', { concurrency: 2 });
    const added = await before<TransferStatus[]>('transfers', 'addUploads', {
      ...folder,
      files: [{ relativePath: 'after-restart.txt', size: 5 }],
    });
    const id = added.ok ? added.value[0]!.id : '';

    running = await restartStorage(running);
    const call = callsOf(running.engine);
    // Read as the app started: the setting and the upload waiting for its bytes are there.
    expect(await call('transfers', 'settings')).toMatchObject({ ok: true, value: { concurrency: 2 } });
    expect(await call<TransferStatus[]>('transfers', 'list')).toMatchObject({
      ok: true,
      value: [{ id, state: 'receiving', received: 0 }],
    });
    const sent = await fetch(`${running.engine.server.url}/console/transfers/${id}`, {
      method: 'PUT',
      body: 'hello',
      headers: { 'Content-Range': 'bytes 0-4/5' },
    });
    expect(sent.status).toBe(200);
    await vi.waitFor(
      async () => {
        const list = await call<TransferStatus[]>('transfers', 'list');
        expect(list).toMatchObject({ ok: true, value: [{ id, state: 'done' }] });
      },
      { timeout: 20_000, interval: 20 },
    );
  });

  it('says which file could not be opened: the queue at start, as before; the index at its first use, leaving both files as they were', async () => {
    spare = await mkdtemp(join(tmpdir(), 'stores-on-use-'));
    const dir = join(spare, 'data', 'storage');
    await mkdir(join(dir, 'transfers'), { recursive: true });
    const configPath = join(spare, 'relay-console.yaml');
    await writeFile(
      configPath,
      'data_dir: ./data\napi:\n  listen: 127.0.0.1:0\nlog:\n  level: warn\nstorage:\n  emulator:\n    enabled: false\n',
    );
    const start = () =>
      startEngine({
        runtime: 'headless',
        version: 'test',
        modules: [createStorageClientModule()],
        configPath,
        env: {},
        listen: { host: '127.0.0.1', port: 0 },
        logSink: { write: () => undefined },
        configSchemas,
      });
    const garbage = 'not a database: bytes the user may want back';

    await writeFile(join(dir, 'transfers', 'queue.sqlite'), garbage);
    await expect(start()).rejects.toThrow(
      `the transfer queue (${join(dir, 'transfers', 'queue.sqlite')}) could not be opened: file is not a database`,
    );
    expect(readFileSync(join(dir, 'transfers', 'queue.sqlite'), 'utf8')).toBe(garbage);
    await rm(join(dir, 'transfers', 'queue.sqlite'));

    await writeFile(join(dir, 'index.sqlite'), garbage);
    const engine = await start();
    try {
      const call = callsOf(engine);
      expect(await call('storage', 'indexStatus', folder)).toEqual({
        ok: false,
        error: {
          code: 'internal',
          message: `the folder index (${join(dir, 'index.sqlite')}) could not be opened: file is not a database`,
        },
      });
      expect(readFileSync(join(dir, 'index.sqlite'), 'utf8')).toBe(garbage);
      // Once the file is put right (here: moved away), the next call opens the index.
      await rm(join(dir, 'index.sqlite'));
      expect(await call('storage', 'indexStatus', folder)).toMatchObject({ ok: true, value: { state: 'none' } });
    } finally {
      await engine.close();
    }
  });
});
