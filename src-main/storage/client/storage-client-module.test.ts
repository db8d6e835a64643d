import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { TestEngine } from '../../engine/test-engine';
import { createCacheKeySource } from '../../platform/secrets/key-source';
import { openSealedFile } from '../../platform/secrets/sealed-file';
import { createAccountStore } from './account-store';
import { OTHER, LOCAL, put, startStorage } from '../test-support';

describe('storage client', () => {
  let running: TestEngine | undefined;
  afterEach(async () => running?.stop());

  it('browses the embedded emulator with no setup: buckets, one folder level in pages, stat, Kodo errors in words', async () => {
    const started = await startStorage();
    running = started.running;
    const { call, port } = started;
    expect(await call('listAccounts')).toEqual({
      ok: true,
      value: [{ id: 'local', name: 'Local storage (emulator)', kind: 'emulator', accessKey: LOCAL.ak }],
    });
    expect(await call('listBuckets', { accountId: 'local' })).toEqual({
      ok: true,
      value: [
        { name: 'photos', private: false, domains: ['photos.test'], region: 'z0' },
        { name: 'vault', private: true, domains: ['vault.localhost'], region: 'z0' },
      ],
    });

    await put(port, 'photos', ['a.txt', '2024/jan/1.jpg', '2024/feb/2.jpg', '2025/x.jpg', 'b.txt', 'c.txt']);
    const root = (await call('listObjects', { accountId: 'local', bucket: 'photos', limit: 2 })) as {
      ok: true;
      value: { folders: string[]; objects: Array<{ key: string }>; marker?: string };
    };
    expect(root.ok).toBe(true);
    const seen = { folders: [...root.value.folders], keys: root.value.objects.map((o) => o.key) };
    let marker = root.value.marker;
    while (marker) {
      const next = (await call('listObjects', { accountId: 'local', bucket: 'photos', limit: 2, marker })) as typeof root;
      seen.folders.push(...next.value.folders);
      seen.keys.push(...next.value.objects.map((o) => o.key));
      marker = next.value.marker;
    }
    expect({ folders: [...new Set(seen.folders)].sort(), keys: seen.keys.sort() }).toEqual({
      folders: ['2024/', '2025/'],
      keys: ['a.txt', 'b.txt', 'c.txt'],
    });
    const inside = await call('listObjects', { accountId: 'local', bucket: 'photos', prefix: '2024/' });
    expect(inside).toMatchObject({ ok: true, value: { folders: ['2024/feb/', '2024/jan/'], objects: [] } });

    const stat = (await call('statObject', { accountId: 'local', bucket: 'photos', key: 'a.txt' })) as {
      ok: true;
      value: Record<string, unknown>;
    };
    expect(stat.value).toMatchObject({ key: 'a.txt', size: 'content of a.txt'.length, storageClass: 'standard', metadata: {} });
    expect(Math.abs((stat.value.putTime as number) - Date.now())).toBeLessThan(60_000);
    expect(await call('statObject', { accountId: 'local', bucket: 'photos', key: 'nope' })).toMatchObject({
      ok: false,
      error: { code: 'not_found', message: expect.stringMatching(/^Kodo 612: no such file/) },
    });
    expect(await call('listObjects', { accountId: 'local', bucket: 'nobucket' })).toMatchObject({
      ok: false,
      error: { code: 'not_found', message: expect.stringMatching(/^Kodo 631: no such bucket/) },
    });
    expect(await call('listBuckets', { accountId: 'ghost' })).toMatchObject({ ok: false, error: { code: 'not_found' } });
  });

  it('adds an account only when its keys list buckets, keeps the SecretKey sealed and never answers it', async () => {
    const started = await startStorage();
    running = started.running;
    const { call, port } = started;
    const endpoints = { uc: `http://127.0.0.1:${port}` };
    const dataDir = join(running.dir, 'data', 'storage');

    const refused = await call('addAccount', { name: 'Typo', accessKey: OTHER.ak, secretKey: 'wrong', endpoints });
    expect(refused).toMatchObject({ ok: false, error: { code: 'invalid_input', message: expect.stringContaining('Kodo 401') } });
    await expect(readFile(join(dataDir, 'accounts.json'), 'utf8')).rejects.toThrow(/ENOENT/);
    expect(await call('addAccount', { accessKey: OTHER.ak, secretKey: OTHER.sk })).toMatchObject({
      ok: false,
      error: { code: 'invalid_input', message: expect.stringContaining('choose a region') },
    });

    const events: unknown[] = [];
    running.engine.services.subscribe('storage', 'onAccounts', (list) => events.push(list));
    const added = (await call('addAccount', { name: 'Partner', accessKey: OTHER.ak, secretKey: OTHER.sk, endpoints })) as {
      ok: true;
      value: { id: string };
    };
    expect(added).toMatchObject({ ok: true, value: { name: 'Partner', kind: 'kodo', accessKey: OTHER.ak, endpoints } });
    expect(await call('listBuckets', { accountId: added.value.id })).toMatchObject({ ok: true, value: [{ name: 'theirs' }] });

    const accounts = await call('listAccounts');
    expect(JSON.stringify(accounts)).not.toContain(OTHER.sk);
    expect(JSON.stringify(events)).not.toContain(OTHER.sk);
    expect(events).toHaveLength(1);
    expect(await readFile(join(dataDir, 'accounts.json'), 'utf8')).not.toContain(OTHER.sk);
    expect((await readFile(join(dataDir, 'account-keys.sealed'))).includes(Buffer.from(OTHER.sk))).toBe(false);
    expect(await readFile(running.configPath, 'utf8')).not.toContain('Partner');

    // What a restart reads: the same files open with the same key.
    const reopened = createAccountStore({
      path: join(dataDir, 'accounts.json'),
      secrets: openSealedFile({
        path: join(dataDir, 'account-keys.sealed'),
        label: 'storage account keys',
        key: createCacheKeySource({ path: join(dataDir, 'account-keys.key') }),
      }),
    });
    expect(await reopened.secretOf(added.value.id)).toBe(OTHER.sk);

    expect(await call('removeAccount', { accountId: 'local' })).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    expect(await call('removeAccount', { accountId: added.value.id })).toEqual({ ok: true });
    expect(await reopened.secretOf(added.value.id)).toBeUndefined();
    expect(await call('listAccounts')).toMatchObject({ ok: true, value: [{ id: 'local' }] });
  });
});
