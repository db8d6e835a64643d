// Storage console benchmark: `npm run bench:storage-console [-- --keys 100000 --files 2000 --size-mib 1024]`
// What a user of the Storage section waits for, each next to the official SDK used directly in
// the same run against the same embedded emulator:
// 1) first rows of a folder of 100k objects; 2) a complete index and count of that folder;
// 3) a folder of 2,000 small files through the app's transfer queue (files/s);
// 4) one big file through the queue (MB/s), resumable v2 in 4 MiB parts both ways.
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import qiniu from 'qiniu';
import type { IndexStatus } from '../src-shared/contract/storage';
import type { TransferStatus } from '../src-shared/contract/transfers';
import { startEngine } from '../src-main/engine/engine';
import { configSchemas } from '../src-main/engine/modules';
import { createStorageClientModule } from '../src-main/storage/client/storage-client-module';
import { storageEmulatorModule } from '../src-main/storage/emulator/storage-emulator-module';

const { values } = parseArgs({
  options: {
    keys: { type: 'string', default: '100000' },
    files: { type: 'string', default: '2000' },
    'size-mib': { type: 'string', default: '1024' },
    concurrency: { type: 'string', default: '8' },
  },
  allowPositionals: true,
});
const keyCount = Number(values.keys);
const fileCount = Number(values.files);
const sizeMiB = Number(values['size-mib']);
const concurrency = Number(values.concurrency);
const AK = 'bench-ak';
const SK = 'bench-sk-secret';
const BUCKET = 'bench';

type Ok<T> = { ok: true; value: T } | { ok: false; error: { message: string } };
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ms = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e6;
const mbps = (bytes: number, millis: number) => (bytes / 1024 / 1024 / (millis / 1000)).toFixed(1);

const dir = await mkdtemp(join(tmpdir(), 'relay-console-bench-'));
await writeFile(
  join(dir, 'relay-console.yaml'),
  [
    'data_dir: ./data',
    'log:\n  level: warn',
    'storage:\n  emulator:\n    listen: 127.0.0.1:0',
    `    accounts:\n      - access_key: ${AK}\n        secret_key: ${SK}\n        buckets:\n          - name: ${BUCKET}\n            domains: [bench.localhost]`,
    '',
  ].join('\n'),
);
// The desktop app: uploads are read from the files the user chose, where they are.
const engine = await startEngine({
  runtime: 'electron',
  version: 'bench',
  modules: [storageEmulatorModule, createStorageClientModule({ downloadsDir: join(dir, 'downloads') })],
  configPath: join(dir, 'relay-console.yaml'),
  env: {},
  listen: { host: '127.0.0.1', port: 0 },
  logSink: { write: () => undefined },
  configSchemas,
});

async function call<T>(service: string, method: string, input?: unknown): Promise<T> {
  const result = (await engine.services.call(service, method, input)) as Ok<T>;
  if (!result.ok) throw new Error(`${service}.${method}: ${result.error.message}`);
  return result.value;
}

const host = new URL(engine.context.addresses.get('storage-emulator')!).host;
const mac = new qiniu.auth.digest.Mac(AK, SK);
const config = new qiniu.conf.Config({ zone: new qiniu.conf.Zone([host], [host], host, host, host, host), useHttpsDomain: false });
const manager = new qiniu.rs.BucketManager(mac, config);
const rows: Array<[string, string, string]> = [];

try {
  // A folder of `keyCount` objects: one put, then rs batch copies of 1000.
  let start = process.hrtime.bigint();
  const token = new qiniu.rs.PutPolicy({ scope: BUCKET }).uploadToken(mac);
  await new qiniu.form_up.FormUploader(config).put(token, 'seed', randomBytes(2048), new qiniu.form_up.PutExtra());
  for (let i = 0; i < keyCount; i += 1000) {
    const ops = Array.from({ length: Math.min(1000, keyCount - i) }, (_, j) =>
      qiniu.rs.copyOp(BUCKET, 'seed', BUCKET, `big/item-${String(i + j).padStart(7, '0')}.bin`, { force: true }),
    );
    await manager.batch(ops);
  }
  console.log(`seeded ${keyCount.toLocaleString('en-US')} keys in ${(ms(start) / 1000).toFixed(1)} s`);

  // 1) First rows: the console's first page of the folder, next to the SDK's own listPrefix.
  const app: number[] = [];
  const sdk: number[] = [];
  for (let run = 0; run < 5; run++) {
    start = process.hrtime.bigint();
    await call('storage', 'listObjects', { accountId: 'local', bucket: BUCKET, prefix: 'big/', limit: 1000 });
    app.push(ms(start));
    start = process.hrtime.bigint();
    await manager.listPrefix(BUCKET, { prefix: 'big/', limit: 1000, delimiter: '/' });
    sdk.push(ms(start));
  }
  rows.push([
    `first 1000 rows of a ${keyCount.toLocaleString('en-US')}-object folder`,
    `${median(app).toFixed(0)} ms`,
    `${median(sdk).toFixed(0)} ms (SDK listPrefix)`,
  ]);

  // 2) Index and count: the background listing into SQLite until the folder's totals are known,
  //    then its largest-first page; the peer lists every key with the SDK and sums sizes in memory.
  const complete = new Promise<IndexStatus>((resolve) =>
    engine.services.subscribe(
      'storage',
      'onIndex',
      (status) =>
        (status as IndexStatus).state === 'complete' && (status as IndexStatus).prefix === 'big/' && resolve(status as IndexStatus),
    ),
  );
  start = process.hrtime.bigint();
  await call('storage', 'indexFolder', { accountId: 'local', bucket: BUCKET, prefix: 'big/' });
  const counted = await complete;
  await call('storage', 'listSorted', { accountId: 'local', bucket: BUCKET, prefix: 'big/', sort: 'size', descending: true, limit: 200 });
  const indexMs = ms(start);
  start = process.hrtime.bigint();
  let marker: string | undefined;
  let listed = 0;
  let bytes = 0;
  do {
    const { data } = (await manager.listPrefix(BUCKET, { prefix: 'big/', limit: 1000, ...(marker ? { marker } : {}) })) as {
      data: { items: Array<{ fsize: number }>; marker?: string };
    };
    listed += data.items.length;
    for (const item of data.items) bytes += item.fsize;
    marker = data.marker || undefined;
  } while (marker);
  const sdkListMs = ms(start);
  if (listed !== counted.listed || bytes !== counted.bytes)
    throw new Error(`the index counted ${counted.listed} keys / ${counted.bytes} B, the SDK ${listed} / ${bytes}`);
  rows.push([
    `index + count + sorted page of ${keyCount.toLocaleString('en-US')} objects`,
    `${(indexMs / 1000).toFixed(1)} s`,
    `${(sdkListMs / 1000).toFixed(1)} s (SDK listing every key, no index)`,
  ]);

  // 3) A folder of small files through the transfer queue, next to SDK form uploads with the same parallelism.
  const small = join(dir, 'small');
  await mkdir(small);
  const names = Array.from({ length: fileCount }, (_, i) => `file-${String(i).padStart(5, '0')}.txt`);
  for (const name of names) await writeFile(join(small, name), randomBytes(4096));
  await call('transfers', 'setConcurrency', { concurrency });
  const appSmallMs = await throughQueue(names.map((name) => ({ relativePath: `small/${name}`, size: 4096, path: join(small, name) })));
  start = process.hrtime.bigint();
  const uploader = new qiniu.form_up.FormUploader(config);
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < names.length) {
        const name = names[next++]!;
        const key = `sdk-small/${name}`;
        await uploader.putFile(
          new qiniu.rs.PutPolicy({ scope: `${BUCKET}:${key}` }).uploadToken(mac),
          key,
          join(small, name),
          new qiniu.form_up.PutExtra(),
        );
      }
    }),
  );
  const sdkSmallMs = ms(start);
  rows.push([
    `${fileCount.toLocaleString('en-US')} files of 4 KiB, ${concurrency} at once`,
    `${(fileCount / (appSmallMs / 1000)).toFixed(0)} files/s`,
    `${(fileCount / (sdkSmallMs / 1000)).toFixed(0)} files/s (SDK form uploads)`,
  ]);

  // 4) One big file, resumable v2 in 4 MiB parts, with the queue's record and etag check.
  const bigPath = join(dir, 'big.bin');
  const handle = await open(bigPath, 'w');
  for (let written = 0; written < sizeMiB; written += 8) await handle.write(randomBytes(8 * 1024 * 1024));
  await handle.close();
  const size = sizeMiB * 1024 * 1024;
  const appBigMs = await throughQueue([{ relativePath: 'big.bin', size, path: bigPath }]);
  start = process.hrtime.bigint();
  const extra = qiniu.resume_up.PutExtra.create('big.bin', undefined, undefined, undefined, undefined, 4 * 1024 * 1024, 'v2');
  await new qiniu.resume_up.ResumeUploader(config).putFile(
    new qiniu.rs.PutPolicy({ scope: `${BUCKET}:sdk-big.bin` }).uploadToken(mac),
    'sdk-big.bin',
    bigPath,
    extra,
  );
  const sdkBigMs = ms(start);
  rows.push([`one ${sizeMiB} MiB file`, `${mbps(size, appBigMs)} MB/s`, `${mbps(size, sdkBigMs)} MB/s (SDK resumable v2)`]);

  console.log('\n| measure | through the app | peer, same run |\n|---|---|---|');
  for (const [what, ours, peer] of rows) console.log(`| ${what} | ${ours} | ${peer} |`);
} finally {
  await engine.close();
  await rm(dir, { recursive: true, force: true });
}

/** Adds uploads to the queue and resolves with the ms until every one is done (etag checked). */
async function throughQueue(files: Array<{ relativePath: string; size: number; path: string }>): Promise<number> {
  const finished = new Set<string>();
  const ids: string[] = [];
  let added = false;
  let failed: string | undefined;
  let done: () => void = () => undefined;
  const allDone = new Promise<void>((resolve) => (done = resolve));
  const check = () => added && ids.every((id) => finished.has(id)) && done();
  const subscription = engine.services.subscribe('transfers', 'onTransfers', (changed) => {
    for (const t of changed as TransferStatus[]) {
      if (t.state === 'failed') failed ??= `${t.name}: ${t.error}`;
      if (t.state === 'done' || t.state === 'failed') finished.add(t.id);
    }
    check();
  });
  const start = process.hrtime.bigint();
  ids.push(
    ...(await call<TransferStatus[]>('transfers', 'addUploads', { accountId: 'local', bucket: BUCKET, prefix: '', files })).map(
      (t) => t.id,
    ),
  );
  added = true;
  check();
  await allDone;
  const elapsed = ms(start);
  if (subscription.ok) subscription.value();
  if (failed) throw new Error(`an upload failed: ${failed}`);
  await call('transfers', 'clearFinished');
  return elapsed;
}
