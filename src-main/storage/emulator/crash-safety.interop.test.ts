import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import qiniu from 'qiniu';
import { waitUntil } from '../../test-support/time';
import { kodoEtag } from './encoding';
import { httpGet, sdkConfig, startEmulatorProcess, startTestEmulator, uploadToken } from './test-support';

const children: ChildProcess[] = [];
const dirs: string[] = [];

afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

/** The standalone entry from source in a child process, so it can really be killed with SIGKILL. */
async function startChild(dataDir: string): Promise<{ child: ChildProcess; port: number }> {
  const entry = resolve(__dirname, 'main.storage-emulator.ts');
  const { child, port } = await startEmulatorProcess(dataDir, [resolve('node_modules/vite-node/vite-node.mjs'), entry, '--']);
  children.push(child);
  return { child, port: await port };
}

describe('crash safety', () => {
  it('kill -9 in the middle of an upload leaves no half object and keeps acknowledged ones', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'kodo-crash-'));
    dirs.push(dataDir);
    const { child, port } = await startChild(dataDir);
    const host = `127.0.0.1:${port}`;
    const kept = randomBytes(100_000);
    const ack = await new qiniu.form_up.FormUploader(sdkConfig(host)).put(
      uploadToken({ scope: 'pub:kept.bin' }),
      'kept.bin',
      kept,
      new qiniu.form_up.PutExtra(),
    );
    expect(ack.resp.statusCode).toBe(200);

    // Start a 20 MB form upload, send half of it, then SIGKILL the server.
    const boundary = 'crashboundary';
    const token = uploadToken({ scope: 'pub:half.bin' });
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="token"\r\n\r\n${token}\r\n--${boundary}\r\nContent-Disposition: form-data; name="key"\r\n\r\nhalf.bin\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="half.bin"\r\n\r\n`;
    const req = request({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: '/',
      headers: { 'Content-Type': `multipart/form-data; boundary=${boundary}`, 'Content-Length': 20_000_000 },
    });
    req.on('error', () => undefined);
    req.write(head);
    req.write(randomBytes(10_000_000));
    // Killed while the body is going to disk: a temp file already holds some of it.
    const tmp = join(dataDir, 'storage', 'tmp');
    const stagedBytes = () =>
      existsSync(tmp)
        ? readdirSync(tmp).reduce((sum, name) => sum + (statSync(join(tmp, name), { throwIfNoEntry: false })?.size ?? 0), 0)
        : 0;
    await waitUntil(() => stagedBytes() > 0, { timeout: 20_000, what: 'the upload to reach the disk' });
    child.kill('SIGKILL');
    await new Promise((r) => (child.exitCode !== null || child.signalCode !== null ? r(undefined) : child.once('exit', r)));
    req.destroy();

    const env = await startTestEmulator({ dataDir });
    try {
      const bm = new qiniu.rs.BucketManager(env.mac, env.config);
      expect((await bm.stat('pub', 'half.bin')).resp.statusCode).toBe(612);
      const stat = await bm.stat('pub', 'kept.bin');
      expect(stat.data).toMatchObject({ hash: kodoEtag(kept), fsize: kept.length });
      expect((await httpGet(env.emulator.port, '/download/pub/kept.bin')).body.equals(kept)).toBe(true);
      expect(readdirSync(join(dataDir, 'storage', 'tmp'))).toEqual([]);
      expect(readdirSync(join(dataDir, 'storage', 'objects')).length).toBe(1);
    } finally {
      await env.close();
    }
  }, 40_000);

  it('a v2 upload interrupted before a restart resumes from its record afterwards', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'kodo-restart-'));
    dirs.push(dataDir);
    const data = randomBytes(3 * 1024 * 1024 + 1);
    const file = join(dataDir, 'up.bin');
    const record = join(dataDir, 'up.progress');
    await writeFile(file, data);
    const token = uploadToken({ scope: 'pub:up.bin' });
    let env = await startTestEmulator({ dataDir });
    let calls = 0;
    const first = qiniu.resume_up.PutExtra.create(
      'up.bin',
      {},
      undefined,
      record,
      () => {
        calls += 1;
        if (calls === 2) throw new Error('stop here');
      },
      1024 * 1024,
      'v2',
    );
    await expect(new qiniu.resume_up.ResumeUploader(env.config).putFile(token, 'up.bin', file, first)).rejects.toThrow();
    const port = env.emulator.port;
    await env.close();
    // Same data dir, same port (the record names the host it talked to).
    env = await startTestEmulator({ dataDir, port });
    try {
      const progress: number[] = [];
      const second = qiniu.resume_up.PutExtra.create('up.bin', {}, undefined, record, (n: number) => progress.push(n), 1024 * 1024, 'v2');
      const result = await new qiniu.resume_up.ResumeUploader(env.config).putFile(token, 'up.bin', file, second);
      expect(result.data).toEqual({ hash: kodoEtag(data), key: 'up.bin' });
      expect(progress).toHaveLength(2);
      expect((await httpGet(env.emulator.port, '/download/pub/up.bin')).body.equals(data)).toBe(true);
    } finally {
      await env.close();
    }
  });

  it('a blob renamed into place whose DB commit never happened is removed at start', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'kodo-orphan-'));
    dirs.push(dataDir);
    let env = await startTestEmulator({ dataDir });
    await new qiniu.form_up.FormUploader(env.config).put(uploadToken({ scope: 'pub:a' }), 'a', 'a', new qiniu.form_up.PutExtra());
    await env.close();
    await writeFile(join(dataDir, 'storage', 'objects', 'orphan0000'), 'never committed');
    await writeFile(join(dataDir, 'storage', 'tmp', 'upload-in-flight'), 'partial');
    env = await startTestEmulator({ dataDir });
    try {
      expect(readdirSync(join(dataDir, 'storage', 'objects'))).not.toContain('orphan0000');
      expect(readdirSync(join(dataDir, 'storage', 'objects')).length).toBe(1);
      expect(readdirSync(join(dataDir, 'storage', 'tmp'))).toEqual([]);
    } finally {
      await env.close();
    }
  });
});
