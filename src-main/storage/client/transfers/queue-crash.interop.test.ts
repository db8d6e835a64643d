import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import qiniu from 'qiniu';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '@main/test-support/free-port';
import { waitUntil } from '@main/test-support/time';
import { kodoEtag } from '../../kodo-etag';

// The transfer queue killed with SIGKILL in the middle of a folder of uploads: every upload it
// had reported done is in the bucket and still done in its file, and the next start finishes
// the rest (a resumable one from its record) without a failure.

const VITE_NODE = resolve('node_modules/vite-node/vite-node.mjs');
const AK = 'queue-crash-ak';
const SK = 'queue-crash-sk-secret';
const children: ChildProcess[] = [];
let dir: string;

interface Child {
  child: ChildProcess;
  output: () => string;
  ready: Promise<void>;
}

function startChild(args: string[], pattern: RegExp): Child {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let out = '';
  const ready = new Promise<void>((resolveReady, reject) => {
    const seen = (d: Buffer) => {
      out += d.toString();
      if (pattern.test(out)) resolveReady();
    };
    child.stdout!.on('data', seen);
    child.stderr!.on('data', seen);
    child.once('exit', (code, signal) => reject(new Error(`${args[1]} exited (${code ?? signal}): ${out.slice(-2000)}`)));
  });
  ready.catch(() => undefined);
  return { child, ready, output: () => out };
}

/** `key → etag` of every upload a queue process printed as done. */
const doneIn = (output: string) => new Map([...output.matchAll(/^done (\S+) (\S+)$/gm)].map((m) => [m[1]!, m[2]!]));

afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('the transfer queue killed with SIGKILL', () => {
  it('loses no finished upload and finishes the rest at the next start', async () => {
    dir = await mkdtemp(join(tmpdir(), 'queue-crash-'));
    const port = await freePort();
    const account = `      - access_key: ${AK}\n        secret_key: ${SK}`;
    await writeFile(
      join(dir, 'emulator.yaml'),
      `data_dir: ${join(dir, 'emulator-data')}\nlog:\n  level: warn\nstorage:\n  emulator:\n    listen: 127.0.0.1:${port}\n    accounts:\n${account}\n        buckets:\n          - name: pub\n            domains: [pub.test]\n`,
    );
    await writeFile(
      join(dir, 'engine.yaml'),
      `data_dir: ${join(dir, 'engine-data')}\napi:\n  listen: 127.0.0.1:0\nlog:\n  level: warn\nstorage:\n  emulator:\n    listen: 127.0.0.1:${port}\n    accounts:\n${account}\n`,
    );
    // A folder of small files and one of several 4 MiB parts (resumable, with a record).
    const folder = join(dir, 'folder');
    await mkdir(folder);
    const files = new Map<string, Buffer>([['a-big.bin', randomBytes(13 * 1024 * 1024)]]);
    for (let i = 0; i < 240; i++) files.set(`small-${String(i).padStart(3, '0')}.txt`, randomBytes(4096));
    for (const [name, bytes] of files) await writeFile(join(folder, name), bytes);

    const emulator = startChild(
      [VITE_NODE, resolve('src-main/storage/emulator/main.storage-emulator.ts'), '--', '--config', join(dir, 'emulator.yaml')],
      /storage emulator at http/,
    );
    await emulator.ready;
    const engine = resolve('src-main/storage/client/transfers/test-support/transfers-engine.ts');
    const first = startChild([VITE_NODE, engine, '--', join(dir, 'engine.yaml'), folder], /listening http/);
    await waitUntil(() => doneIn(first.output()).size >= 40, { timeout: 60_000, interval: 20, what: '40 uploads done' });
    first.child.kill('SIGKILL');
    await new Promise((r) => first.child.once('exit', r));
    const reported = doneIn(first.output());
    expect(reported.size).toBeLessThan(files.size);

    // Every upload reported done is in the bucket with the etag of its file.
    const host = `127.0.0.1:${port}`;
    const config = new qiniu.conf.Config({ zone: new qiniu.conf.Zone([host], [host], host, host, host, host), useHttpsDomain: false });
    const bucket = new qiniu.rs.BucketManager(new qiniu.auth.digest.Mac(AK, SK), config);
    for (const [key, etag] of reported) {
      expect(etag).toBe(kodoEtag(files.get(key)!));
      expect((await bucket.stat('pub', key)).data).toMatchObject({ hash: etag });
    }

    // The next start goes on with what was left, and every file ends in the bucket.
    const second = startChild([VITE_NODE, engine, '--', join(dir, 'engine.yaml')], /listening http/);
    await second.ready;
    const listed = async () => {
      const { data } = (await bucket.listPrefix('pub', { limit: 1000 })) as { data: { items: Array<{ key: string; hash: string }> } };
      return new Map(data.items.map((item) => [item.key, item.hash]));
    };
    const all = await waitUntil(async () => ((await listed()).size === files.size ? listed() : false), {
      timeout: 60_000,
      interval: 200,
      what: 'every file in the bucket',
    });
    for (const [key, bytes] of files) expect(all.get(key), key).toBe(kodoEtag(bytes));
    // The queue's own file says every upload is done, each with the etag of its file.
    const queueRows = () => {
      const queue = new Database(join(dir, 'engine-data', 'storage', 'transfers', 'queue.sqlite'), { readonly: true });
      try {
        return queue.prepare('SELECT key, state, etag, error FROM transfers').all() as Array<{
          key: string;
          state: string;
          etag: string;
          error: string | null;
        }>;
      } finally {
        queue.close();
      }
    };
    const rows = await waitUntil(
      () => {
        const found = queueRows();
        return found.every((row) => row.state === 'done') && found;
      },
      { timeout: 30_000, interval: 100, what: 'every row done in the queue' },
    ).catch((error: Error) => {
      const open = queueRows().filter((row) => row.state !== 'done');
      throw new Error(`${error.message}; not done: ${JSON.stringify(open.slice(0, 5))}; queue said: ${second.output().slice(-1500)}`);
    });
    expect(rows).toHaveLength(files.size);
    for (const row of rows) expect(row, row.key).toMatchObject({ state: 'done', etag: kodoEtag(files.get(row.key)!) });
    expect(second.output()).not.toMatch(/^failed /m);
    second.child.kill('SIGTERM');
    emulator.child.kill('SIGTERM');
  }, 180_000);
});
