// Kodo emulator benchmark: `npm run bench:storage [-- --size-mib 1024 --files 1000 --keys 100000]`
// 1) resumable v2 upload of one big file through the qiniu SDK, next to a plain file copy of
//    the same bytes and to the same SDK upload against a server that stores nothing (the
//    client's own ceiling); 2) many small form uploads; 3) one 1000-key list page out of many keys.
// The emulator runs from the built bundle in a process of its own, as `npm start` runs it;
// EMULATOR_NODE_FLAGS="--cpu-prof --cpu-prof-dir=prof" profiles it.
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { spawn } from 'node:child_process';
import { mkdtemp, rm, open, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import qiniu from 'qiniu';
import { createLogger } from '../src-main/platform/logger';
import { buildMain } from '../scripts/build.mjs';
import { createStorageEmulator } from '../src-main/storage/emulator/storage-emulator';
import { MetadataStore } from '../src-main/storage/emulator/metadata-store';

const { values } = parseArgs({
  options: {
    'size-mib': { type: 'string', default: '256' },
    files: { type: 'string', default: '1000' },
    keys: { type: 'string', default: '100000' },
    concurrency: { type: 'string', default: '8' },
    // By default the emulator runs in its own process, as it would beside a real client.
    'in-process': { type: 'boolean', default: false },
  },
  allowPositionals: true,
});
const sizeMiB = Number(values['size-mib']);
const fileCount = Number(values.files);
const keyCount = Number(values.keys);
const concurrency = Number(values.concurrency);
const AK = 'bench-ak';
const SK = 'bench-sk';

async function writeRandomFile(path: string, bytes: number): Promise<void> {
  const handle = await open(path, 'w');
  const chunk = 8 * 1024 * 1024;
  for (let written = 0; written < bytes; written += chunk) await handle.write(randomBytes(Math.min(chunk, bytes - written)));
  await handle.close();
}

async function rawMultipartUpload(host: string, upToken: string, key: string, path: string): Promise<{ hash: string }> {
  const base = `http://${host}/buckets/bench/objects/${Buffer.from(key).toString('base64url')}/uploads`;
  const auth = { Authorization: `UpToken ${upToken}` };
  const { uploadId } = (await (await fetch(base, { method: 'POST', headers: auth })).json()) as { uploadId: string };
  const parts: { etag: string; partNumber: number }[] = [];
  let partNumber = 0;
  for await (const chunk of createReadStream(path, { highWaterMark: 4 * 1024 * 1024 })) {
    partNumber += 1;
    const body = new Uint8Array(chunk as Buffer);
    const md5 = createHash('md5').update(body).digest('hex');
    const response = await fetch(`${base}/${uploadId}/${partNumber}`, { method: 'PUT', headers: { ...auth, 'Content-MD5': md5 }, body });
    parts.push({ etag: ((await response.json()) as { etag: string }).etag, partNumber });
  }
  const done = await fetch(`${base}/${uploadId}`, {
    method: 'POST',
    headers: { ...auth, 'Content-Type': 'application/json' },
    body: JSON.stringify({ parts }),
  });
  return (await done.json()) as { hash: string };
}

function mbps(bytes: number, ms: number): string {
  return (bytes / 1024 / 1024 / (ms / 1000)).toFixed(1);
}

/** A Node child process that prints its port; resolves with the port and a stop function. */
async function startChild(args: string[], portPattern: RegExp): Promise<{ port: number; close(): Promise<void> }> {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((done, fail) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = portPattern.exec(out);
      if (m) done(Number(m[1]));
    });
    child.on('exit', (code) => fail(new Error(`${args.at(-1)} exited with ${code}`)));
  });
  return {
    port,
    close: () =>
      new Promise<void>((done) => {
        child.once('exit', () => done());
        child.kill('SIGTERM');
      }),
  };
}

/** The standalone emulator from the built bundle, in a process of its own. */
async function startChildEmulator(work: string): Promise<{ port: number; close(): Promise<void> }> {
  const config = join(work, 'config.yaml');
  await writeFile(
    config,
    `data_dir: ${join(work, 'data')}\nlog:\n  level: warn\nstorage:\n  emulator:\n    listen: 127.0.0.1:0\n    accounts:\n      - access_key: ${AK}\n        secret_key: ${SK}\n        buckets:\n          - name: bench\n            domains: [bench.test]\n`,
  );
  await buildMain();
  const flags = (process.env.EMULATOR_NODE_FLAGS ?? '').split(' ').filter(Boolean);
  return startChild([...flags, resolve('dist/main/storage-emulator.js'), '--config', config], /at http:\/\/127\.0\.0\.1:(\d+)/);
}

function sdkConfig(host: string): qiniu.conf.Config {
  return new qiniu.conf.Config({
    zone: new qiniu.conf.Zone([host], [host], host, host, host, host),
    useHttpsDomain: false,
    ucEndpointsProvider: new qiniu.httpc.StaticEndpointsProvider([new qiniu.httpc.Endpoint(host, { defaultScheme: 'http' })]),
  });
}

/** The SDK's resumable v2 upload of `path` in 4 MiB parts (its default); resolves with the time it took. */
async function sdkUpload(config: qiniu.conf.Config, upToken: string, key: string, path: string): Promise<{ ms: number; hash: string }> {
  const t = performance.now();
  const extra = qiniu.resume_up.PutExtra.create(key, undefined, undefined, undefined, undefined, 4 * 1024 * 1024, 'v2');
  const result = await new qiniu.resume_up.ResumeUploader(config).putFile(upToken, key, path, extra);
  if (result.resp.statusCode !== 200) throw new Error(`resumable upload failed: ${JSON.stringify(result.data)}`);
  return { ms: performance.now() - t, hash: (result.data as { hash: string }).hash };
}

async function main(): Promise<void> {
  const work = await mkdtemp(join(tmpdir(), 'kodo-bench-'));
  const emulator = values['in-process']
    ? await createStorageEmulator({
        listen: '127.0.0.1:0',
        dataDir: join(work, 'data'),
        accounts: [{ access_key: AK, secret_key: SK, buckets: [{ name: 'bench', domains: ['bench.test'] }] }],
        logger: createLogger({ level: 'warn' }),
      })
    : await startChildEmulator(work);
  const host = `127.0.0.1:${emulator.port}`;
  const mac = new qiniu.auth.digest.Mac(AK, SK);
  const config = sdkConfig(host);
  const token = (scope: string) => new qiniu.rs.PutPolicy({ scope, expires: 7200 }).uploadToken(mac);
  const rows: [string, string, string][] = [];
  const ratios: string[] = [];
  try {
    // 1) big resumable v2 upload vs plain copy
    const bytes = sizeMiB * 1024 * 1024;
    const source = join(work, 'big.bin');
    await writeRandomFile(source, bytes);
    let t = performance.now();
    await pipeline(createReadStream(source), createWriteStream(join(work, 'copy.bin')));
    const copyMs = performance.now() - t;
    await rm(join(work, 'copy.bin'));
    rows.push([`plain file copy, ${sizeMiB} MiB`, `${mbps(bytes, copyMs)} MB/s`, `${copyMs.toFixed(0)} ms`]);
    const nullServer = await startChild([resolve('bench/peers/kodo-null-upload.mjs')], /listening (\d+)/);
    let ceiling: { ms: number };
    try {
      ceiling = await sdkUpload(sdkConfig(`127.0.0.1:${nullServer.port}`), token('bench:big.bin'), 'big.bin', source);
    } finally {
      await nullServer.close();
    }
    rows.push([
      `resumable v2 upload (SDK, 4 MiB parts) to a server that stores nothing, ${sizeMiB} MiB`,
      `${mbps(bytes, ceiling.ms)} MB/s`,
      `${ceiling.ms.toFixed(0)} ms`,
    ]);
    const upload = await sdkUpload(config, token('bench:big.bin'), 'big.bin', source);
    const upMs = upload.ms;
    rows.push([`resumable v2 upload (SDK, 4 MiB parts), ${sizeMiB} MiB`, `${mbps(bytes, upMs)} MB/s`, `${upMs.toFixed(0)} ms`]);
    ratios.push(`SDK upload rate / plain copy rate: ${(copyMs / upMs).toFixed(2)}`);
    ratios.push(`SDK upload rate / the same SDK to a server that stores nothing: ${(ceiling.ms / upMs).toFixed(2)}`);
    // The same upload over plain HTTP (fetch, 4 MiB parts in order), to show the SDK's own share.
    t = performance.now();
    const raw = await rawMultipartUpload(host, token('bench:raw.bin'), 'raw.bin', source);
    const rawMs = performance.now() - t;
    rows.push([`resumable v2 upload (plain fetch, 4 MiB parts), ${sizeMiB} MiB`, `${mbps(bytes, rawMs)} MB/s`, `${rawMs.toFixed(0)} ms`]);
    if (raw.hash !== upload.hash) throw new Error('raw upload hash differs from the SDK upload');
    await rm(source);

    // 2) small form uploads
    const form = new qiniu.form_up.FormUploader(config);
    const small = randomBytes(1024);
    const upToken = token('bench');
    let next = 0;
    t = performance.now();
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < fileCount) {
          const i = next++;
          const r = await form.put(upToken, `small/${String(i).padStart(6, '0')}`, small, new qiniu.form_up.PutExtra());
          if (r.resp.statusCode !== 200) throw new Error(`form upload failed: ${JSON.stringify(r.data)}`);
        }
      }),
    );
    const formMs = performance.now() - t;
    rows.push([
      `form uploads, ${fileCount} x 1 KiB, ${concurrency} at a time`,
      `${(fileCount / (formMs / 1000)).toFixed(0)} files/s`,
      `${formMs.toFixed(0)} ms`,
    ]);

    // 3) list page: keys seeded straight into the metadata DB (uploading 100k files would be bench 2 again)
    const db = new MetadataStore(join(work, 'data', 'storage', 'metadata.sqlite'));
    t = performance.now();
    db.transaction(() => {
      for (let i = 0; i < keyCount; i++) {
        db.putObject({
          bucket: 'bench',
          key: `many/${String(i).padStart(7, '0')}.txt`,
          hash: 'Fto5o-5ea0sNMlW_75VgGJCv2AcJ',
          fsize: 0,
          mime: 'text/plain',
          put_time: Date.now() * 10_000,
          type: 0,
          status: 0,
          end_user: null,
          meta: null,
          md5: '',
          expire_at: null,
          lifecycle: null,
          blob: `bench-${i}`,
        });
      }
    });
    db.close();
    rows.push([`seed ${keyCount} keys into SQLite`, '', `${(performance.now() - t).toFixed(0)} ms`]);
    const bm = new qiniu.rs.BucketManager(mac, config);
    const first = await bm.listPrefix('bench', { prefix: 'many/', limit: 1000 });
    const middle = await bm.listPrefix('bench', {
      prefix: 'many/',
      limit: 1000,
      marker: Buffer.from(JSON.stringify({ c: 0, k: `many/${String(Math.floor(keyCount / 2)).padStart(7, '0')}.txt` })).toString(
        'base64url',
      ),
    });
    if (first.data.items.length !== 1000 || middle.data.items.length !== 1000) throw new Error('list returned fewer than 1000 items');
    // A console browsing a bucket lists page after page: the figure is the steady one, after
    // ten pages to warm up (the first few run before the engine has compiled the path).
    const steadyMedian = async (once: () => Promise<unknown>): Promise<number> => {
      for (let i = 0; i < 10; i++) await once();
      const times: number[] = [];
      for (let i = 0; i < 15; i++) {
        t = performance.now();
        await once();
        times.push(performance.now() - t);
      }
      return times.sort((a, b) => a - b)[7]!;
    };
    const sdkList = await steadyMedian(() => bm.listPrefix('bench', { prefix: 'many/', limit: 1000, marker: middle.data.marker }));
    rows.push([
      `list page of 1000 out of ${keyCount} keys (SDK, mid-bucket marker, median of 15 after 10)`,
      '',
      `${sdkList.toFixed(1)} ms`,
    ]);
    // The same page over plain HTTP (QBox-signed fetch): the emulator's share without the SDK's own work.
    const path = `/list?bucket=bench&prefix=many%2F&limit=1000&marker=${middle.data.marker}`;
    const sign = createHmac('sha1', SK).update(`${path}\n`).digest('base64').replace(/\+/g, '-').replace(/\//g, '_');
    const plainList = await steadyMedian(async () => {
      const response = await fetch(`http://${host}${path}`, { method: 'POST', headers: { Authorization: `QBox ${AK}:${sign}` } });
      const page = (await response.json()) as { items?: unknown[] };
      if (page.items?.length !== 1000) throw new Error(`plain list answered ${response.status} without 1000 items`);
    });
    rows.push([`list page of 1000 out of ${keyCount} keys (plain fetch, median of 15 after 10)`, '', `${plainList.toFixed(1)} ms`]);
  } finally {
    await emulator.close();
    await rm(work, { recursive: true, force: true });
  }
  const where = values['in-process'] ? 'emulator in the same process as the SDK' : 'emulator in its own process';
  console.log(
    `\nKodo emulator benchmark, ${where} (sizes: --size-mib ${sizeMiB} --files ${fileCount} --keys ${keyCount}; the full-size run is --size-mib 1024)\n`,
  );
  const width = Math.max(...rows.map((r) => r[0].length));
  for (const [name, rate, time] of rows) console.log(`${name.padEnd(width)}  ${rate.padStart(14)}  ${time.padStart(10)}`);
  console.log('');
  for (const line of ratios) console.log(line);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
