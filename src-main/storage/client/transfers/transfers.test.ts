import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import qiniu from 'qiniu';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TransferStatus } from '@shared/contract/transfers';
import type { TestEngine } from '@main/engine/test-engine';
import { freePort } from '@main/test-support/free-port';
import { kodoEtag } from '../../kodo-etag';
import { downloadFile } from '../kodo-transfers';
import { transferUploads } from '../storage-capability';
import { put, restartStorage, sdk, startStorage } from '../../test-support';

type Ok<T> = { ok: true; value: T };
const MiB = 1024 * 1024;

/** Calls of the `transfers` service, and every status it pushed. */
function transfersOf(running: TestEngine) {
  const seen: TransferStatus[] = [];
  running.engine.services.subscribe('transfers', 'onTransfers', (statuses) => seen.push(...(statuses as TransferStatus[])));
  const call = async <T>(method: string, input?: unknown) => {
    const result = (await running.engine.services.call('transfers', method, input)) as Ok<T> | { ok: false; error: { message: string } };
    if (!result.ok) throw new Error(result.error.message);
    return result.value;
  };
  // Polled, failing with the transfer's last state when it never gets there.
  const until = (id: string, predicate: (s: TransferStatus) => boolean, timeoutMs = 20_000): Promise<TransferStatus> =>
    vi.waitFor(
      async () => {
        const now = (await call<TransferStatus[]>('list')).find((t) => t.id === id);
        if (now && predicate(now)) return now;
        throw new Error(`transfer ${id} is ${now?.state} (${now?.transferred}/${now?.size}; ${now?.error ?? ''})`);
      },
      { timeout: timeoutMs, interval: 20 },
    );
  return { seen, call, until };
}

/** Sends bytes the way the console page does: PUT with Content-Range to the console's own address. */
async function send(
  running: TestEngine,
  id: string,
  body: Buffer,
  first: number,
  total: number,
  contentRange = `bytes ${first}-${first + body.length - 1}/${total}`,
) {
  const base = running.engine.server.url;
  const response = await fetch(`${base}/console/transfers/${id}`, {
    method: 'PUT',
    body: new Uint8Array(body),
    headers: { 'Content-Range': contentRange },
  });
  return {
    status: response.status,
    body: (await response.json().catch(() => ({}))) as { received?: number; error?: string; paused?: boolean },
  };
}

async function stat(port: number, bucket: string, key: string) {
  const { mac, config } = sdk(port);
  const { data, resp } = (await new qiniu.rs.BucketManager(mac, config).stat(bucket, key)) as {
    data: { hash: string; fsize: number; mimeType: string };
    resp: { statusCode: number };
  };
  expect(resp.statusCode).toBe(200);
  return data;
}

describe('transfers', () => {
  let running: TestEngine | undefined;
  afterEach(async () => running?.stop());

  it('takes a browser upload in ranges, sends it in resumable parts and checks the etag', async () => {
    const started = await startStorage();
    running = started.running;
    const transfers = transfersOf(running);
    const data = randomBytes(9 * MiB + 123);
    const [added] = await transfers.call<TransferStatus[]>('addUploads', {
      accountId: 'local',
      bucket: 'photos',
      prefix: 'clips/',
      files: [{ relativePath: 'day1/run.mp4', size: data.length }],
    });
    expect(added).toMatchObject({ kind: 'upload', key: 'clips/day1/run.mp4', name: 'day1/run.mp4', state: 'receiving', received: 0 });

    // Bad ranges are refused with what was wrong, and lose nothing.
    expect(await send(running, added!.id, data.subarray(0, 10), 0, data.length, '')).toMatchObject({ status: 400 });
    expect(await send(running, added!.id, data.subarray(0, 10), 0, data.length + 1)).toMatchObject({ status: 400 });
    expect(await send(running, added!.id, data.subarray(5, 10), 5, data.length)).toMatchObject({ status: 409, body: { received: 0 } });
    expect((await send(running, 'no-such-id', data.subarray(0, 10), 0, data.length)).status).toBe(404);

    const half = 5 * MiB;
    expect(await send(running, added!.id, data.subarray(0, half), 0, data.length)).toMatchObject({ status: 200, body: { received: half } });
    expect((await transfers.call<TransferStatus[]>('list'))[0]).toMatchObject({ state: 'receiving', received: half });
    expect(await send(running, added!.id, data.subarray(half), half, data.length)).toMatchObject({
      status: 200,
      body: { received: data.length },
    });

    const done = await transfers.until(added!.id, (t) => t.state === 'done');
    expect(done).toMatchObject({ transferred: data.length, etag: kodoEtag(data) });
    expect(await stat(started.port, 'photos', 'clips/day1/run.mp4')).toMatchObject({ fsize: data.length, hash: kodoEtag(data) });
    // The received copy goes once the service has it and the queue's file says so.
    await expect.poll(() => readdir(join(running!.dir, 'data', 'storage', 'transfers', 'spool'))).toEqual([]);
    // The folder index knows the new object without a new listing.
    const sorted = async () =>
      (await running!.engine.services.call('storage', 'listSorted', {
        accountId: 'local',
        bucket: 'photos',
        prefix: 'clips/day1/',
      })) as Ok<{ entries: Array<{ key: string }> }>;
    await expect.poll(async () => (await sorted()).value.entries.map((e) => e.key)).toEqual(['clips/day1/run.mp4']);
  });

  it('pauses an upload between parts and resumes it without starting over', async () => {
    const started = await startStorage();
    running = started.running;
    const transfers = transfersOf(running);
    const data = randomBytes(40 * MiB);
    const [added] = await transfers.call<TransferStatus[]>('addUploads', {
      accountId: 'local',
      bucket: 'photos',
      prefix: '',
      files: [{ relativePath: 'big.bin', size: data.length }],
    });
    await send(running, added!.id, data, 0, data.length);
    await transfers.until(added!.id, (t) => t.state === 'running' && t.transferred > 0, 20_000);
    await transfers.call('pause', { ids: [added!.id] });
    const paused = await transfers.until(added!.id, (t) => t.state === 'paused');
    expect(paused.transferred).toBeGreaterThan(0);
    expect(paused.transferred).toBeLessThan(data.length);

    await transfers.call('resume', { ids: [added!.id] });
    const done = await transfers.until(added!.id, (t) => t.state === 'done', 30_000);
    expect(done.etag).toBe(kodoEtag(data));
    // After the resume, progress started where the pause left it, not at zero (a short run may be
    // told only as done: changes close together are pushed together).
    const pausedAt = transfers.seen.findIndex((t) => t.id === added!.id && t.state === 'paused');
    const afterResume = transfers.seen.slice(pausedAt).filter((t) => t.id === added!.id && (t.state === 'running' || t.state === 'done'));
    expect(afterResume.length).toBeGreaterThan(0);
    expect(afterResume.every((t) => t.transferred >= paused.transferred)).toBe(true);
    expect((await stat(started.port, 'photos', 'big.bin')).hash).toBe(kodoEtag(data));
  });

  it('goes on with an upload after the app was closed and opened again', async () => {
    const started = await startStorage(await freePort());
    running = started.running;
    const transfers = transfersOf(running);
    const data = randomBytes(48 * MiB);
    const [added] = await transfers.call<TransferStatus[]>('addUploads', {
      accountId: 'local',
      bucket: 'photos',
      prefix: '',
      files: [{ relativePath: 'restart.bin', size: data.length }],
    });
    await send(running, added!.id, data, 0, data.length);
    await transfers.until(added!.id, (t) => t.transferred >= 8 * MiB);

    running = await restartStorage(running);
    const again = transfersOf(running);
    const before = (await again.call<TransferStatus[]>('list')).find((t) => t.id === added!.id)!;
    expect(before.transferred).toBeGreaterThanOrEqual(8 * MiB);
    const done = await again.until(added!.id, (t) => t.state === 'done', 30_000);
    expect(done.etag).toBe(kodoEtag(data));
    // Pushed progress after the restart never went below what had been sent before it.
    expect(again.seen.filter((t) => t.id === added!.id).every((t) => t.transferred >= before.transferred)).toBe(true);
    expect((await stat(started.port, 'photos', 'restart.bin')).hash).toBe(kodoEtag(data));
  });

  it('pauses an upload while its bytes are being read: the page is told to wait, then sends the rest', async () => {
    const started = await startStorage();
    running = started.running;
    const transfers = transfersOf(running);
    const data = randomBytes(6 * MiB + 5);
    const [added] = await transfers.call<TransferStatus[]>('addUploads', {
      accountId: 'local',
      bucket: 'photos',
      prefix: '',
      files: [{ relativePath: 'read.bin', size: data.length, lastModified: 1_700_000_000_000 }],
    });
    expect(added).toMatchObject({ fileName: 'read.bin', lastModified: 1_700_000_000_000 });
    await send(running, added!.id, data.subarray(0, 2 * MiB), 0, data.length);
    await transfers.call('pause', { ids: [added!.id] });
    expect(await transfers.until(added!.id, (t) => t.state === 'paused')).toMatchObject({ received: 2 * MiB });
    // Paused is an answer, not an error: the sender keeps its file and stops; what arrived stays.
    expect(await send(running, added!.id, data.subarray(2 * MiB), 2 * MiB, data.length)).toMatchObject({
      status: 200,
      body: { paused: true, received: 2 * MiB },
    });
    expect(await (await fetch(`${running.engine.server.url}/console/transfers/${added!.id}`)).json()).toMatchObject({
      paused: true,
      received: 2 * MiB,
    });
    await transfers.call('resume', { ids: [added!.id] });
    await transfers.until(added!.id, (t) => t.state === 'receiving');
    expect(await send(running, added!.id, data.subarray(2 * MiB), 2 * MiB, data.length)).toMatchObject({ status: 200 });
    expect(await transfers.until(added!.id, (t) => t.state === 'done')).toMatchObject({ etag: kodoEtag(data) });
  });

  it('cancels a paused multipart upload and drops its parts on the service', async () => {
    const started = await startStorage();
    running = started.running;
    const transfers = transfersOf(running);
    const data = randomBytes(40 * MiB);
    const [added] = await transfers.call<TransferStatus[]>('addUploads', {
      accountId: 'local',
      bucket: 'photos',
      prefix: '',
      files: [{ relativePath: 'dropped.bin', size: data.length }],
    });
    await send(running, added!.id, data, 0, data.length);
    await transfers.until(added!.id, (t) => t.state === 'running' && t.transferred > 0);
    await transfers.call('pause', { ids: [added!.id] });
    await transfers.until(added!.id, (t) => t.state === 'paused');
    const resumeDir = join(running.dir, 'data', 'storage', 'transfers', 'resume');
    // The SDK's own record of the multipart upload (its types leave the sync reader out).
    const recorder = () =>
      qiniu.resume_up.createResumeRecorderSync(resumeDir) as unknown as {
        getSync(key: string): { uploadId: string; upDomains: string[] } | undefined;
      };
    const record = recorder().getSync(added!.id)!;
    expect(record.uploadId).toBeTruthy();
    const { mac } = sdk(started.port);
    const token = new qiniu.rs.PutPolicy({ scope: 'photos:dropped.bin' }).uploadToken(mac);
    const parts = () =>
      fetch(
        `http://${record.upDomains[0]}/buckets/photos/objects/${qiniu.util.urlsafeBase64Encode('dropped.bin')}/uploads/${record.uploadId}`,
        { headers: { Authorization: `UpToken ${token}` } },
      );
    expect((await parts()).status).toBe(200);

    await transfers.call('cancel', { ids: [added!.id] });
    await transfers.until(added!.id, (t) => t.state === 'canceled');
    expect((await parts()).status).toBe(612);
    expect(recorder().getSync(added!.id)).toBeFalsy();
  });

  it('says which names are taken, and keeps both under the first free numbered name or overwrites', async () => {
    const started = await startStorage();
    running = started.running;
    const transfers = transfersOf(running);
    await put(started.port, 'photos', ['in/a.txt', 'in/a (1).txt', 'in/b.txt']);
    expect(
      await transfers.call('conflicts', {
        accountId: 'local',
        bucket: 'photos',
        prefix: 'in/',
        relativePaths: ['a.txt', 'b.txt', 'c.txt'],
      }),
    ).toEqual({ existing: ['a.txt', 'b.txt'] });
    const added = await transfers.call<TransferStatus[]>('addUploads', {
      accountId: 'local',
      bucket: 'photos',
      prefix: 'in/',
      files: [
        { relativePath: 'a.txt', size: 3, onConflict: 'keep-both' },
        { relativePath: 'b.txt', size: 3, onConflict: 'overwrite' },
      ],
    });
    expect(added.map((t) => [t.key, t.name, t.fileName])).toEqual([
      ['in/a (2).txt', 'a (2).txt', 'a.txt'],
      ['in/b.txt', 'b.txt', 'b.txt'],
    ]);
    for (const t of added) await send(running, t.id, Buffer.from('new'), 0, 3);
    for (const t of added) await transfers.until(t.id, (s) => s.state === 'done');
    expect((await stat(started.port, 'photos', 'in/a (2).txt')).fsize).toBe(3);
    expect((await stat(started.port, 'photos', 'in/b.txt')).hash).toBe(kodoEtag(Buffer.from('new')));
    expect((await stat(started.port, 'photos', 'in/a.txt')).fsize).toBe('content of in/a.txt'.length);
  });

  it('cancels an upload and throws its received bytes away', async () => {
    const started = await startStorage();
    running = started.running;
    const transfers = transfersOf(running);
    const [added] = await transfers.call<TransferStatus[]>('addUploads', {
      accountId: 'local',
      bucket: 'photos',
      prefix: '',
      files: [{ relativePath: 'never.bin', size: 100 }],
    });
    await send(running, added!.id, Buffer.alloc(40), 0, 100);
    await transfers.call('cancel', { ids: [added!.id] });
    expect(await transfers.until(added!.id, (t) => t.state === 'canceled')).toMatchObject({ transferred: 0 });
    expect(existsSync(join(running.dir, 'data', 'storage', 'transfers', 'spool', added!.id))).toBe(false);
    expect((await send(running, added!.id, Buffer.alloc(60), 40, 100)).status).toBe(404);
    await expect(transfers.call('retry', { ids: [added!.id] })).rejects.toThrow(/must be chosen again/);
    await transfers.call('clearFinished');
    expect(await transfers.call('list')).toEqual([]);
  });

  it('refuses files named by path outside the desktop app', async () => {
    const started = await startStorage();
    running = started.running;
    const transfers = transfersOf(running);
    await expect(
      transfers.call('addUploads', {
        accountId: 'local',
        bucket: 'photos',
        prefix: '',
        files: [{ relativePath: 'passwd', size: 10, path: '/etc/passwd' }],
      }),
    ).rejects.toThrow(/only in the desktop app/);
    await expect(
      transfers.call('addUploads', { accountId: 'local', bucket: 'photos', prefix: '', files: [{ relativePath: '../up.txt', size: 1 }] }),
    ).rejects.toThrow(/relative path/);
  });

  it('reads a file where it is in the desktop app, without a copy', async () => {
    const started = await startStorage(0, 'electron');
    running = started.running;
    const transfers = transfersOf(running);
    const data = randomBytes(6 * MiB);
    const path = join(running.dir, 'chosen.bin');
    await writeFile(path, data);
    const [added] = await transfers.call<TransferStatus[]>('addUploads', {
      accountId: 'local',
      bucket: 'photos',
      prefix: 'desk/',
      files: [{ relativePath: 'chosen.bin', size: data.length, path }],
    });
    expect(added).toMatchObject({ state: 'queued', localPath: path });
    expect(await transfers.until(added!.id, (t) => t.state === 'done')).toMatchObject({ etag: kodoEtag(data) });
    expect(existsSync(join(running.dir, 'data', 'storage', 'transfers', 'spool', added!.id))).toBe(false);
    expect((await stat(started.port, 'photos', 'desk/chosen.bin')).hash).toBe(kodoEtag(data));
    await expect(
      transfers.call('addUploads', {
        accountId: 'local',
        bucket: 'photos',
        prefix: '',
        files: [{ relativePath: 'gone.bin', size: 1, path: join(running.dir, 'nope') }],
      }),
    ).rejects.toThrow(/no file at/);
  });

  it("takes a file main made (a camera's clip) as its own: listed like any upload, then removed once up", async () => {
    const started = await startStorage(0);
    running = started.running;
    const transfers = transfersOf(running);
    const data = randomBytes(5 * MiB);
    const made = join(running.dir, 'data', 'clip.mp4');
    await writeFile(made, data);
    const uploads = running.engine.context.capabilities.get(transferUploads)!;
    const added = await uploads.uploadFile({
      accountId: 'local',
      bucket: 'photos',
      key: 'clips/cam/a.mp4',
      name: 'clips/cam/a.mp4',
      file: made,
    });
    expect(added).toMatchObject({ kind: 'upload', state: 'queued', size: data.length, received: data.length, name: 'clips/cam/a.mp4' });
    expect(existsSync(made)).toBe(false);
    expect(transfers.seen.some((t) => t.id === added.id)).toBe(true);
    expect(await transfers.until(added.id, (t) => t.state === 'done')).toMatchObject({ etag: kodoEtag(data), transferred: data.length });
    await expect.poll(() => existsSync(join(running!.dir, 'data', 'storage', 'transfers', 'spool', added.id))).toBe(false);
    expect((await stat(started.port, 'photos', 'clips/cam/a.mp4')).hash).toBe(kodoEtag(data));
  });

  it('downloads a folder with its sub-folders into the downloads folder and checks each etag', async () => {
    const started = await startStorage();
    running = started.running;
    const transfers = transfersOf(running);
    const bodies = new Map([
      ['docs/a.txt', Buffer.from('alpha')],
      ['docs/deep/b.bin', randomBytes(6 * MiB)],
      ['docs/deep/', Buffer.alloc(0)],
      ['other.txt', Buffer.from('not chosen')],
    ]);
    await put(started.port, 'vault', [...bodies.keys()], (key) => bodies.get(key)!);
    const result = await transfers.call<{ added: number }>('addDownloads', {
      accountId: 'local',
      bucket: 'vault',
      prefix: '',
      items: [{ key: 'docs/', folder: true }],
    });
    expect(result.added).toBe(2);
    const list = await transfers.call<TransferStatus[]>('list');
    for (const t of list) await transfers.until(t.id, (s) => s.state === 'done');
    const downloads = join(running.dir, 'data', 'downloads', 'vault');
    expect(await readFile(join(downloads, 'docs', 'a.txt'), 'utf8')).toBe('alpha');
    expect((await readFile(join(downloads, 'docs', 'deep', 'b.bin'))).equals(bodies.get('docs/deep/b.bin')!)).toBe(true);

    // A browser on another machine fetches its own copy of a finished download, and nothing else.
    const notes = list.find((t) => t.key === 'docs/a.txt')!;
    const copy = await fetch(`${running.engine.server.url}/console/downloads/${notes.id}`);
    expect(copy.status).toBe(200);
    expect(copy.headers.get('content-disposition')).toBe("attachment; filename*=UTF-8''a.txt");
    expect(await copy.text()).toBe('alpha');
    expect((await fetch(`${running.engine.server.url}/console/downloads/not-a-transfer`)).status).toBe(404);

    // The same file again does not overwrite the first copy.
    await transfers.call('addDownloads', {
      accountId: 'local',
      bucket: 'vault',
      prefix: 'docs/',
      items: [{ key: 'docs/a.txt', folder: false }],
    });
    const second = (await transfers.call<TransferStatus[]>('list')).at(-1)!;
    expect(second.localPath).toBe(join(running.dir, 'data', 'downloads', 'vault', 'a.txt'));
    await transfers.until(second.id, (t) => t.state === 'done');
  });

  it('goes on with a download from the bytes already on disk (Range)', async () => {
    const started = await startStorage();
    running = started.running;
    const data = randomBytes(3 * MiB);
    await put(started.port, 'photos', ['ranged.bin'], () => data);
    const partPath = join(running.dir, 'ranged.bin.part');
    await writeFile(partPath, data.subarray(0, MiB));
    const seen: number[] = [];
    const { mac, config } = sdk(started.port);
    const url = new qiniu.rs.BucketManager(mac, config).publicDownloadUrl(`http://photos.test:${started.port}`, 'ranged.bin');
    await downloadFile({
      url,
      connectTo: `127.0.0.1:${started.port}`,
      partPath,
      size: data.length,
      signal: new AbortController().signal,
      onProgress: (n) => seen.push(n),
    });
    expect((await readFile(partPath)).equals(data)).toBe(true);
    // The first progress was the bytes already there: they were not fetched again.
    expect(seen[0]).toBe(MiB);
  });
});
