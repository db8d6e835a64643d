// Storage console benchmark: `npm run bench:storage-console [-- --keys 100000 --files 2000 --size-mib 1024 --rounds 3]`
// What a user of the Storage section waits for, each next to the official SDK used directly in
// the same run against the same embedded emulator:
// 1) first rows of a folder of 100k objects; 2) a complete index and count of that folder;
// 3) a folder of 2,000 small files through the app's transfer queue (files/s), next to the SDK's
//    form uploads, `--rounds` times turn about, with the ratio of the two (goal at least 0.8);
// 4) one big file through the queue (MB/s), resumable v2 in 4 MiB parts both ways, also turn about.
// `--keys 0` leaves out 1 and 2, `--size-mib 0` leaves out 4. Every file the queue reports done
// must be in the bucket with its etag, and its row done in the queue's SQLite file.
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import qiniu from 'qiniu';
import type { IndexStatus } from '../src-shared/contract/storage';
import type { TransferStatus } from '../src-shared/contract/transfers';
import { startEngine, type Engine } from '../src-main/engine/engine';
import { configSchemas } from '../src-main/engine/modules';
import { createStorageClientModule } from '../src-main/storage/client/storage-client-module';
import { storageEmulatorModule } from '../src-main/storage/emulator/storage-emulator-module';

const { values } = parseArgs({
  options: {
    keys: { type: 'string', default: '100000' },
    files: { type: 'string', default: '2000' },
    'size-mib': { type: 'string', default: '1024' },
    concurrency: { type: 'string', default: '8' },
    rounds: { type: 'string', default: '1' },
  },
  allowPositionals: true,
});
const keyCount = Number(values.keys);
const fileCount = Number(values.files);
const sizeMiB = Number(values['size-mib']);
const concurrency = Number(values.concurrency);
const rounds = Number(values.rounds);
if (!Number.isInteger(rounds) || rounds < 1) throw new Error('--rounds takes a whole number of at least 1');
const AK = 'bench-ak';
const SK = 'bench-sk-secret';
const BUCKET = 'bench';

type Ok<T> = { ok: true; value: T } | { ok: false; error: { message: string } };
type Row = [what: string, ours: string, peer: string];
const median = (xs: readonly number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
const ms = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e6;
const mbps = (bytes: number, millis: number) => (bytes / 1024 / 1024 / (millis / 1000)).toFixed(1);
const loads = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
const ofRounds = rounds > 1 ? `, median of ${rounds} rounds turn about` : '';

/** The bench's engine (emulator and storage client) and the SDK pointed at its emulator. */
interface Bench {
  engine: Engine;
  dir: string;
  config: qiniu.conf.Config;
  mac: qiniu.auth.digest.Mac;
  manager: qiniu.rs.BucketManager;
  call<T>(service: string, method: string, input?: unknown): Promise<T>;
}

async function startBench(): Promise<Bench> {
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
  const host = new URL(engine.context.addresses.get('storage-emulator')!).host;
  const mac = new qiniu.auth.digest.Mac(AK, SK);
  const config = new qiniu.conf.Config({ zone: new qiniu.conf.Zone([host], [host], host, host, host, host), useHttpsDomain: false });
  return {
    engine,
    dir,
    config,
    mac,
    manager: new qiniu.rs.BucketManager(mac, config),
    async call<T>(service: string, method: string, input?: unknown): Promise<T> {
      const result = (await engine.services.call(service, method, input)) as Ok<T>;
      if (!result.ok) throw new Error(`${service}.${method}: ${result.error.message}`);
      return result.value;
    },
  };
}

/** 1) and 2): a folder of `keyCount` objects (one put, then rs batch copies of 1000), read by the console and by the SDK. */
async function listing({ engine, config, mac, manager, call }: Bench): Promise<Row[]> {
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
  // The console's first page of the folder, next to the SDK's own listPrefix.
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
  const rows: Row[] = [
    [
      `first 1000 rows of a ${keyCount.toLocaleString('en-US')}-object folder`,
      `${median(app).toFixed(0)} ms`,
      `${median(sdk).toFixed(0)} ms (SDK listPrefix)`,
    ],
  ];
  // The background listing into SQLite until the folder's totals are known, then its largest-first
  // page; the peer lists every key with the SDK and sums sizes in memory.
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
  const { listed, bytes } = await listAll(manager, 'big/');
  const sdkListMs = ms(start);
  if (listed.size !== counted.listed || bytes !== counted.bytes)
    throw new Error(`the index counted ${counted.listed} keys / ${counted.bytes} B, the SDK ${listed.size} / ${bytes}`);
  rows.push([
    `index + count + sorted page of ${keyCount.toLocaleString('en-US')} objects`,
    `${(indexMs / 1000).toFixed(1)} s`,
    `${(sdkListMs / 1000).toFixed(1)} s (SDK listing every key, no index)`,
  ]);
  return rows;
}

/** Every key under `prefix` with its etag, and the bytes they hold, page by page through the SDK. */
async function listAll(manager: qiniu.rs.BucketManager, prefix: string): Promise<{ listed: Map<string, string>; bytes: number }> {
  const listed = new Map<string, string>();
  let bytes = 0;
  let marker: string | undefined;
  do {
    const { data } = (await manager.listPrefix(BUCKET, { prefix, limit: 1000, ...(marker ? { marker } : {}) })) as {
      data: { items: Array<{ key: string; hash: string; fsize: number }>; marker?: string };
    };
    for (const item of data.items) {
      listed.set(item.key, item.hash);
      bytes += item.fsize;
    }
    marker = data.marker || undefined;
  } while (marker);
  return { listed, bytes };
}

/**
 * Adds uploads to the queue and resolves with the ms until every one is done (etag checked by the
 * queue). Then, untimed: every row must be `done` in the queue's store and every key in the
 * bucket with the etag the queue reported.
 */
async function throughQueue(
  { engine, manager, call }: Bench,
  prefix: string,
  files: Array<{ relativePath: string; size: number; path: string }>,
): Promise<number> {
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
    ...(await call<TransferStatus[]>('transfers', 'addUploads', { accountId: 'local', bucket: BUCKET, prefix, files })).map((t) => t.id),
  );
  added = true;
  check();
  await allDone;
  const elapsed = ms(start);
  if (subscription.ok) subscription.value();
  if (failed) throw new Error(`an upload failed: ${failed}`);
  const rows = new Map((await call<TransferStatus[]>('transfers', 'list')).map((t) => [t.id, t]));
  const { listed } = await listAll(manager, prefix);
  for (const id of ids) {
    const row = rows.get(id);
    if (row?.state !== 'done' || !row.etag)
      throw new Error(`transfer ${id} is ${row?.state ?? 'gone'} in the queue after it was reported done`);
    if (listed.get(row.key) !== row.etag) throw new Error(`${row.key} is not in the bucket with the etag ${row.etag} the queue reported`);
  }
  await call('transfers', 'clearFinished');
  return elapsed;
}

/** `concurrency` SDK form uploads at a time of the given files under `prefix`; resolves with the ms they took. */
async function sdkFormUploads({ config, mac }: Bench, prefix: string, files: Array<{ name: string; path: string }>): Promise<number> {
  const start = process.hrtime.bigint();
  const uploader = new qiniu.form_up.FormUploader(config);
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < files.length) {
        const { name, path } = files[next++]!;
        const key = `${prefix}${name}`;
        const { resp } = await uploader.putFile(
          new qiniu.rs.PutPolicy({ scope: `${BUCKET}:${key}` }).uploadToken(mac),
          key,
          path,
          new qiniu.form_up.PutExtra(),
        );
        if (resp.statusCode !== 200) throw new Error(`SDK form upload of ${key} answered ${resp.statusCode}`);
      }
    }),
  );
  return ms(start);
}

/** Runs `ours` and `peer` once per round, the first of each round alternating; prints each round. */
async function turnAbout(
  label: string,
  ours: (round: number) => Promise<number>,
  peer: (round: number) => Promise<number>,
  show: (millis: number) => string,
): Promise<{ ours: number[]; peer: number[] }> {
  const times = { ours: [] as number[], peer: [] as number[] };
  for (let round = 1; round <= rounds; round++) {
    const turns = round % 2 === 1 ? [ours, peer] : [peer, ours];
    for (const turn of turns) (turn === ours ? times.ours : times.peer).push(await turn(round));
    const [o, p] = [times.ours.at(-1)!, times.peer.at(-1)!];
    console.log(
      `${label} round ${round}/${rounds} (${round % 2 === 1 ? 'queue first' : 'SDK first'}, load ${loads()}): queue ${show(o)}, SDK ${show(p)} (${(p / o).toFixed(2)})`,
    );
  }
  return times;
}

/** Queue rate ÷ SDK rate, the median of each round's (the two ran back to back, so under the same load). */
function ratioLine(what: string, times: { ours: number[]; peer: number[] }, goal?: number): string {
  const ratios = times.ours.map((o, i) => times.peer[i]! / o);
  const rounded = ratios.map((r) => r.toFixed(2)).join(', ');
  const verdict = goal === undefined ? '' : `; goal at least ${goal.toFixed(2)}: ${median(ratios) >= goal ? 'met' : 'not met'}`;
  return `${what}: ${median(ratios).toFixed(2)}${rounds > 1 ? ` (median of the rounds' ${rounded})` : ''}${verdict}`;
}

/** 3): a folder of small files through the queue, next to SDK form uploads with the same parallelism. */
async function smallFiles(bench: Bench): Promise<{ row: Row; ratio: string }> {
  const small = join(bench.dir, 'small');
  await mkdir(small);
  const files = Array.from({ length: fileCount }, (_, i) => {
    const name = `file-${String(i).padStart(5, '0')}.txt`;
    return { name, path: join(small, name) };
  });
  for (const file of files) await writeFile(file.path, randomBytes(4096));
  await bench.call('transfers', 'setConcurrency', { concurrency });
  const queued = files.map(({ name, path }) => ({ relativePath: name, size: 4096, path }));
  const rate = (millis: number) => `${(fileCount / (millis / 1000)).toFixed(0)} files/s`;
  const times = await turnAbout(
    'small files',
    (round) => throughQueue(bench, `small-${round}/`, queued),
    (round) => sdkFormUploads(bench, `sdk-small-${round}/`, files),
    rate,
  );
  return {
    row: [
      `${fileCount.toLocaleString('en-US')} files of 4 KiB, ${concurrency} at once${ofRounds}`,
      rate(median(times.ours)),
      `${rate(median(times.peer))} (SDK form uploads)`,
    ],
    ratio: ratioLine('queue ÷ SDK form uploads, files/s', times, 0.8),
  };
}

/** 4): one big file, resumable v2 in 4 MiB parts, with the queue's record and etag check. */
async function bigFile(bench: Bench): Promise<{ row: Row; ratio: string }> {
  const bigPath = join(bench.dir, 'big.bin');
  const handle = await open(bigPath, 'w');
  for (let written = 0; written < sizeMiB; written += 8) await handle.write(randomBytes(8 * 1024 * 1024));
  await handle.close();
  const size = sizeMiB * 1024 * 1024;
  const sdkBig = async (round: number) => {
    const key = `sdk-big-${round}.bin`;
    const start = process.hrtime.bigint();
    const extra = qiniu.resume_up.PutExtra.create(key, undefined, undefined, undefined, undefined, 4 * 1024 * 1024, 'v2');
    await new qiniu.resume_up.ResumeUploader(bench.config).putFile(
      new qiniu.rs.PutPolicy({ scope: `${BUCKET}:${key}` }).uploadToken(bench.mac),
      key,
      bigPath,
      extra,
    );
    return ms(start);
  };
  const rate = (millis: number) => `${mbps(size, millis)} MB/s`;
  const times = await turnAbout(
    'big file',
    (round) => throughQueue(bench, `big-${round}/`, [{ relativePath: 'big.bin', size, path: bigPath }]),
    sdkBig,
    rate,
  );
  return {
    row: [`one ${sizeMiB} MiB file${ofRounds}`, rate(median(times.ours)), `${rate(median(times.peer))} (SDK resumable v2)`],
    ratio: ratioLine('queue ÷ SDK resumable v2, MB/s', times),
  };
}

const startLoad = loads();
const bench = await startBench();
const rows: Row[] = [];
const ratios: string[] = [];
try {
  if (keyCount > 0) rows.push(...(await listing(bench)));
  if (fileCount > 0) {
    const small = await smallFiles(bench);
    rows.push(small.row);
    ratios.push(small.ratio);
  }
  if (sizeMiB > 0) {
    const big = await bigFile(bench);
    rows.push(big.row);
    ratios.push(big.ratio);
  }
  console.log(
    `\nstorage console (--keys ${keyCount} --files ${fileCount} --size-mib ${sizeMiB} --concurrency ${concurrency} --rounds ${rounds}); load average ${startLoad} at the start, ${loads()} at the end`,
  );
  console.log('\n| measure | through the app | peer, same run |\n|---|---|---|');
  for (const [what, ours, peer] of rows) console.log(`| ${what} | ${ours} | ${peer} |`);
  console.log('');
  for (const line of ratios) console.log(line);
} finally {
  await bench.engine.close();
  await rm(bench.dir, { recursive: true, force: true });
}
