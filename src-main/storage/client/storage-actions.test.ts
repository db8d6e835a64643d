import { afterEach, describe, expect, it, vi } from 'vitest';
import type { BatchStatus, IndexStatus, SortedPage } from '@shared/contract/storage';
import type { TestEngine } from '../../engine/test-engine';
import { copies, getThroughEmulator, put, startStorage } from '../test-support';

type Ok<T> = { ok: true; value: T };

describe('storage client actions', () => {
  let running: TestEngine | undefined;
  afterEach(async () => running?.stop());

  it('indexes a folder in the background with progress, then sorts and counts it whole', async () => {
    const started = await startStorage();
    running = started.running;
    const { call, port } = started;
    await put(port, 'photos', ['many/a-seed', 'top.txt']);
    await copies(
      port,
      'photos',
      'many/a-seed',
      Array.from({ length: 1500 }, (_, i) => `many/item-${String(i).padStart(5, '0')}`),
    );
    await put(port, 'photos', ['many/deep/huge.bin'], () => Buffer.alloc(50_000, 1));
    await put(port, 'photos', ['many/m-large.bin'], () => Buffer.alloc(20_000, 2));

    const events: IndexStatus[] = [];
    const completed = new Promise<IndexStatus>((resolve) =>
      running!.engine.services.subscribe('storage', 'onIndex', (status) => {
        events.push(status as IndexStatus);
        if ((status as IndexStatus).state === 'complete') resolve(status as IndexStatus);
      }),
    );
    const target = { accountId: 'local', bucket: 'photos' };
    expect(await call('indexFolder', { ...target, prefix: '' })).toMatchObject({ ok: true, value: { state: 'running' } });
    const done = await completed;
    const expectedBytes = 1501 * 'content of many/a-seed'.length + 'content of top.txt'.length + 70_000;
    expect(done).toMatchObject({ prefix: '', state: 'complete', listed: 1504, estimate: 1504, bytes: expectedBytes });
    // The first page said how far it had come and guessed more to come.
    expect(events.find((e) => e.state === 'running' && e.listed === 1000)?.estimate).toBeGreaterThan(1000);

    const bySize = (await call('listSorted', { ...target, prefix: 'many/', sort: 'size', descending: true, limit: 3 })) as Ok<SortedPage>;
    expect(bySize.value.total).toBe(1 + 1502);
    expect(bySize.value.entries.map((e) => e.key)).toEqual([
      'many/deep/',
      'many/m-large.bin',
      expect.stringMatching(/^many\/(a-seed|item-)/),
    ]);
    expect(bySize.value.entries[0]).toMatchObject({ kind: 'folder', files: 1, bytes: 50_000 });
    const lastPage = (await call('listSorted', { ...target, prefix: 'many/', sort: 'name', offset: 1500, limit: 10 })) as Ok<SortedPage>;
    expect(lastPage.value.entries.map((e) => e.key)).toEqual(['many/item-01498', 'many/item-01499', 'many/m-large.bin']);
    expect(await call('indexStatus', { ...target, prefix: 'many/' })).toMatchObject({
      ok: true,
      value: { state: 'complete', listed: 1503, bytes: 1501 * 22 + 70_000 },
    });
    expect(await call('listSorted', { ...target, prefix: 'many', sort: 'name' })).toMatchObject({
      ok: false,
      error: { code: 'invalid_input' },
    });
  });

  it('renames, moves and deletes a folder in batches of at most 1000, keeping the index true', async () => {
    const started = await startStorage();
    running = started.running;
    const { call, port } = started;
    await put(port, 'photos', ['album/seed.jpg']);
    await copies(
      port,
      'photos',
      'album/seed.jpg',
      Array.from({ length: 1200 }, (_, i) => `album/sub/p${i}.jpg`),
    );
    const target = { accountId: 'local', bucket: 'photos' };
    await call('indexFolder', { ...target, prefix: '' });
    await expect.poll(async () => ((await call('indexStatus', { ...target, prefix: '' })) as Ok<IndexStatus>).value.state).toBe('complete');

    const finished = (id: string) =>
      new Promise<BatchStatus>((resolve) =>
        running!.engine.services.subscribe('storage', 'onBatch', (status) => {
          const s = status as BatchStatus;
          if (s.id === id && (s.state === 'done' || s.state === 'failed')) resolve(s);
        }),
      );
    const list = async (bucket: string, prefix: string) => {
      const keys: string[] = [];
      let marker: string | undefined;
      do {
        const page = (await call('listObjects', {
          accountId: 'local',
          bucket,
          prefix,
          delimiter: '',
          ...(marker ? { marker } : {}),
        })) as Ok<{ objects: Array<{ key: string }>; marker?: string }>;
        keys.push(...page.value.objects.map((o) => o.key));
        marker = page.value.marker;
      } while (marker);
      return keys;
    };

    const rename = (await call('startBatch', {
      ...target,
      kind: 'rename',
      item: { key: 'album/', folder: true },
      newName: 'trip',
    })) as Ok<BatchStatus>;
    expect(rename.value).toMatchObject({ title: 'Rename album/ to trip', state: 'listing' });
    expect(await finished(rename.value.id)).toMatchObject({ state: 'done', done: 1201, total: 1201, failed: 0 });
    expect(await list('photos', 'album/')).toEqual([]);
    expect(await list('photos', 'trip/')).toHaveLength(1201);
    expect(await call('indexStatus', { ...target, prefix: 'trip/' })).toMatchObject({
      ok: true,
      value: { state: 'complete', listed: 1201 },
    });

    const move = (await call('startBatch', {
      ...target,
      kind: 'move',
      items: [{ key: 'trip/sub/', folder: true }],
      toBucket: 'vault',
      toPrefix: 'kept/',
    })) as Ok<BatchStatus>;
    expect(await finished(move.value.id)).toMatchObject({ state: 'done', done: 1200 });
    expect(await list('vault', 'kept/sub/')).toHaveLength(1200);
    expect(await list('photos', 'trip/')).toEqual(['trip/seed.jpg']);

    // A move onto existing names without overwrite: each refusal is reported with Kodo's code.
    await put(port, 'photos', ['clash/seed.jpg']);
    const clash = (await call('startBatch', {
      ...target,
      kind: 'move',
      items: [{ key: 'trip/seed.jpg', folder: false }],
      toBucket: 'photos',
      toPrefix: 'clash/',
    })) as Ok<BatchStatus>;
    expect(await finished(clash.value.id)).toMatchObject({
      state: 'failed',
      done: 0,
      failed: 1,
      errors: [{ key: 'trip/seed.jpg', message: expect.stringMatching(/^Kodo 614/) }],
    });

    const remove = (await call('startBatch', {
      accountId: 'local',
      bucket: 'vault',
      kind: 'delete',
      items: [{ key: 'kept/', folder: true }],
    })) as Ok<BatchStatus>;
    expect(await finished(remove.value.id)).toMatchObject({ state: 'done', done: 1200 });
    expect(await list('vault', '')).toEqual([]);
    expect(
      await call('startBatch', {
        ...target,
        kind: 'move',
        items: [{ key: 'trip/', folder: true }],
        toBucket: 'photos',
        toPrefix: 'trip/x/',
      }),
    ).toMatchObject({
      ok: false,
      error: { code: 'invalid_input', message: expect.stringContaining('inside itself') },
    });
    expect(((await call('listBatches')) as Ok<BatchStatus[]>).value.map((b) => b.kind)).toEqual(['delete', 'move', 'move', 'rename']);
  });

  it('signs private links that work until they expire, and changes an object in place', async () => {
    const started = await startStorage();
    running = started.running;
    const { call, port } = started;
    await put(port, 'vault', ['plan.txt']);
    const link = (await call('downloadLink', { accountId: 'local', bucket: 'vault', key: 'plan.txt', expiresInSeconds: 60 })) as Ok<{
      url: string;
      expiresAt: number;
    }>;
    expect(link.value.url).toMatch(new RegExp(`^http://vault\\.localhost:${port}/plan\\.txt\\?e=\\d+&token=local-ak:`));
    expect(await getThroughEmulator(port, link.value.url)).toEqual({ status: 200, body: 'content of plan.txt' });
    // The emulator's clock a second past the link's expiry (Date only: sockets keep real time).
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(link.value.expiresAt + 1100);
      expect((await getThroughEmulator(port, link.value.url)).status).toBe(401);
    } finally {
      vi.useRealTimers();
    }
    const unsigned = link.value.url.split('?')[0]!;
    expect((await getThroughEmulator(port, unsigned)).status).toBe(401);

    const target = { accountId: 'local', bucket: 'vault', key: 'plan.txt' };
    expect(await call('updateObject', { ...target, mimeType: 'text/markdown', deleteAfterDays: 3 })).toMatchObject({
      ok: true,
      value: { mimeType: 'text/markdown', expiration: expect.any(Number) },
    });
    expect(await call('updateObject', { ...target, storageClass: 'archive' })).toMatchObject({
      ok: true,
      value: { storageClass: 'archive', restore: 'frozen' },
    });
    // Kodo accepts the thaw; the emulator does not report restoreStatus yet, so only the answer is checked.
    expect(await call('restoreObject', { ...target, days: 1 })).toMatchObject({ ok: true, value: { storageClass: 'archive' } });
    expect(await call('restoreObject', { ...target, key: 'missing.txt', days: 1 })).toMatchObject({
      ok: false,
      error: { message: expect.stringMatching(/^Kodo 612/) },
    });
    expect(await call('updateObject', { ...target, mimeType: 'not a type' })).toMatchObject({
      ok: false,
      error: { code: 'invalid_input', message: expect.stringContaining('image/png') },
    });

    expect(await call('createFolder', { accountId: 'local', bucket: 'vault', prefix: 'reports/' })).toEqual({ ok: true });
    expect(await call('listObjects', { accountId: 'local', bucket: 'vault' })).toMatchObject({
      ok: true,
      value: { folders: ['reports/'] },
    });
    expect(await call('createFolder', { accountId: 'local', bucket: 'vault', prefix: 'reports/' })).toMatchObject({
      ok: false,
      error: { code: 'conflict', message: expect.stringContaining('already exists') },
    });

    expect(await call('createBucket', { accountId: 'local', bucket: 'scratch' })).toEqual({ ok: true });
    // A new bucket downloads from the test domain it was given.
    expect(await call('downloadLink', { accountId: 'local', bucket: 'scratch', key: 'x', expiresInSeconds: 60 })).toMatchObject({
      ok: true,
      value: { url: expect.stringMatching(/^http:\/\/q[a-z0-9]{8}\.bkt\.kodo\.localhost:\d+\/x$/) },
    });
    await put(port, 'scratch', ['keep.txt']);
    expect(await call('deleteBucket', { accountId: 'local', bucket: 'scratch' })).toMatchObject({
      ok: false,
      error: { message: expect.stringMatching(/^Kodo 400/) },
    });
  });
});
