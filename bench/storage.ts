// Kodo emulator benchmark: `npm run bench:storage [-- --size-mib 1024 --files 1000 --keys 100000 --rounds 3]`
// 1) resumable v2 upload of one big file through the qiniu SDK to the emulator, next to the same
//    SDK upload to a server that stores nothing (bench/peers/kodo-null-upload.mjs: the client's
//    own ceiling) and a plain file copy of the same bytes, `--rounds` times turn about (medians
//    and the emulator ÷ null server ratio, goal at least 0.9); 2) many small form uploads;
//    3) one 1000-key list page out of many keys.
// The emulator runs from the built bundle in a process of its own, with the engine's V8 flags;
// EMULATOR_NODE_FLAGS="--cpu-prof --cpu-prof-dir=prof" profiles it.
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, readFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { mkdtemp, rm, open, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import qiniu from 'qiniu';
import { createLogger } from '../src-main/platform/logger';
import { buildMain } from '../scripts/build.mjs';
import { ENGINE_V8_FLAGS, engineEnv } from '../scripts/engine-flags.mjs';
import { createStorageEmulator } from '../src-main/storage/emulator/storage-emulator';
import { MetadataStore } from '../src-main/storage/emulator/metadata-store';

const { values } = parseArgs({
  options: {
    'size-mib': { type: 'string', default: '256' },
    files: { type: 'string', default: '1000' },
    keys: { type: 'string', default: '100000' },
    concurrency: { type: 'string', default: '8' },
    rounds: { type: 'string', default: '1' },
    // By default the emulator runs in its own process, as it would beside a real client.
    'in-process': { type: 'boolean', default: false },
  },
  allowPositionals: true,
});
const sizeMiB = Number(values['size-mib']);
const fileCount = Number(values.files);
const keyCount = Number(values.keys);
const concurrency = Number(values.concurrency);
const rounds = Number(values.rounds);
if (!Number.isInteger(rounds) || rounds < 1) throw new Error('--rounds takes a whole number of at least 1');
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

/** A server in a Node child process of its own: its port, its process id and a stop function. */
interface Child {
  port: number;
  pid?: number;
  close(): Promise<void>;
}

/** A Node child process that prints its port; resolves once it has. */
async function startChild(args: string[], portPattern: RegExp): Promise<Child> {
  // Both servers with the engine's allocator settings, as the app starts the emulator.
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'], env: engineEnv() });
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
    pid: child.pid!,
    close: () =>
      new Promise<void>((done) => {
        child.once('exit', () => done());
        child.kill('SIGTERM');
      }),
  };
}

/**
 * The standalone emulator from the built bundle, in a process of its own, with the V8 flags the
 * engine runs with under `npm start` (where the emulator is one of its modules): left to its own
 * heuristic, V8 marks the emulator's small heap over and over while socket buffers stream through.
 */
async function startChildEmulator(work: string): Promise<Child> {
  const config = join(work, 'config.yaml');
  await writeFile(
    config,
    `data_dir: ${join(work, 'data')}\nlog:\n  level: warn\nstorage:\n  emulator:\n    listen: 127.0.0.1:0\n    accounts:\n      - access_key: ${AK}\n        secret_key: ${SK}\n        buckets:\n          - name: bench\n            domains: [bench.test]\n`,
  );
  await buildMain();
  const flags = (process.env.EMULATOR_NODE_FLAGS ?? '').split(' ').filter(Boolean);
  return startChild(
    [...ENGINE_V8_FLAGS, ...flags, resolve('dist/main/storage-emulator.js'), '--config', config],
    /at http:\/\/127\.0\.0\.1:(\d+)/,
  );
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

type Row = [name: string, rate: string, time: string];

const median = (xs: readonly number[]): number => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
const loads = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

interface BigUpload {
  /** The emulator's address (host:port), its process (none in-process), its SDK config and a token maker. */
  host: string;
  emulator: Child;
  config: qiniu.conf.Config;
  mac: qiniu.auth.digest.Mac;
  token(scope: string): string;
  work: string;
}

/** One upload's wall time, and the CPU seconds the server (user and system) and this process (the SDK) spent on it. */
interface Turn {
  ms: number;
  serverCpu: number;
  serverSystem: number;
  sdkCpu: number;
}

/** A Linux process's CPU seconds in user and system mode, from /proc (NaN without a process). */
function cpuOfProcess(pid: number | undefined): { user: number; system: number } {
  if (pid === undefined) return { user: NaN, system: NaN };
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return { user: Number(fields[11]) / 100, system: Number(fields[12]) / 100 };
}

/** The SDK's upload of `source` to one server, with the CPU each side spent (the server's from /proc, when it has a process). */
async function timedUpload(
  config: qiniu.conf.Config,
  server: Child,
  upToken: string,
  key: string,
  source: string,
): Promise<Turn & { hash: string }> {
  const sdkCpu = () => {
    const { user, system } = process.cpuUsage();
    return (user + system) / 1e6;
  };
  const [server0, sdk0] = [cpuOfProcess(server.pid), sdkCpu()];
  const upload = await sdkUpload(config, upToken, key, source);
  const server1 = cpuOfProcess(server.pid);
  return {
    ms: upload.ms,
    hash: upload.hash,
    serverCpu: server1.user + server1.system - server0.user - server0.system,
    serverSystem: server1.system - server0.system,
    sdkCpu: sdkCpu() - sdk0,
  };
}

/**
 * The big resumable upload, `rounds` times: the emulator, the null server and a plain copy of the
 * same bytes, turn about (the first of each round alternates, so neither always runs on a cache
 * the other warmed). The uploaded objects are deleted after the last round.
 */
async function bigUploadRounds({ host, emulator, config, mac, token, work }: BigUpload): Promise<{ rows: Row[]; ratios: string[] }> {
  const bytes = sizeMiB * 1024 * 1024;
  const source = join(work, 'big.bin');
  await writeRandomFile(source, bytes);
  // The same V8 flags as the emulator: the peer differs in what it does, not in how Node runs it.
  const nullServer = await startChild([...ENGINE_V8_FLAGS, resolve('bench/peers/kodo-null-upload.mjs')], /listening (\d+)/);
  const nullConfig = sdkConfig(`127.0.0.1:${nullServer.port}`);
  const manager = new qiniu.rs.BucketManager(mac, config);
  const turns = { emulator: [] as Turn[], nullServer: [] as Turn[], copy: [] as number[] };
  let emulatorHash = '';
  try {
    for (let round = 1; round <= rounds; round++) {
      const key = `big-${round}.bin`;
      const emulatorTurn = async () => {
        const upload = await timedUpload(config, emulator, token(`bench:${key}`), key, source);
        emulatorHash = upload.hash;
        turns.emulator.push(upload);
      };
      const nullTurn = async () =>
        void turns.nullServer.push(await timedUpload(nullConfig, nullServer, token(`bench:${key}`), key, source));
      for (const turn of round % 2 === 1 ? [nullTurn, emulatorTurn] : [emulatorTurn, nullTurn]) await turn();
      const t = performance.now();
      await pipeline(createReadStream(source), createWriteStream(join(work, 'copy.bin')));
      turns.copy.push(performance.now() - t);
      await rm(join(work, 'copy.bin'));
      const [e, n] = [turns.emulator.at(-1)!, turns.nullServer.at(-1)!];
      console.log(
        `round ${round}/${rounds} (${round % 2 === 1 ? 'null server first' : 'emulator first'}, load ${loads()}): emulator ${mbps(bytes, e.ms)} MB/s (CPU ${e.serverCpu.toFixed(1)} s of which system ${e.serverSystem.toFixed(1)}, SDK ${e.sdkCpu.toFixed(1)} s), null server ${mbps(bytes, n.ms)} MB/s (CPU ${n.serverCpu.toFixed(1)} s of which system ${n.serverSystem.toFixed(1)}, SDK ${n.sdkCpu.toFixed(1)} s), ratio ${(n.ms / e.ms).toFixed(2)}; plain copy ${mbps(bytes, turns.copy.at(-1)!)} MB/s`,
      );
    }
  } finally {
    await nullServer.close();
  }
  // Deleted only now: freeing a 1 GiB file (and the disk's discards) would slow whatever ran next.
  for (let round = 1; round <= rounds; round++) await manager.delete('bench', `big-${round}.bin`);
  // The same upload over plain HTTP (fetch, 4 MiB parts in order), to show the SDK's own share.
  const t = performance.now();
  const raw = await rawMultipartUpload(host, token('bench:raw.bin'), 'raw.bin', source);
  const rawMs = performance.now() - t;
  if (raw.hash !== emulatorHash) throw new Error('raw upload hash differs from the SDK upload');
  await rm(source);
  const of = rounds > 1 ? `, median of ${rounds}` : '';
  const row = (name: string, ms: number[], cpu?: number[]): Row => [
    `${name}, ${sizeMiB} MiB${of}${cpu ? `; server CPU ${median(cpu).toFixed(1)} s` : ''}`,
    `${mbps(bytes, median(ms))} MB/s`,
    `${median(ms).toFixed(0)} ms`,
  ];
  const perRound = turns.emulator.map((e, i) => turns.nullServer[i]!.ms / e.ms);
  const copyRatio = turns.emulator.map((e, i) => turns.copy[i]! / e.ms);
  const cpuOf = (list: Turn[]) => (emulator.pid !== undefined ? list.map((x) => x.serverCpu) : undefined);
  return {
    rows: [
      row('plain file copy', turns.copy),
      row(
        'resumable v2 upload (SDK, 4 MiB parts) to a server that stores nothing',
        turns.nullServer.map((x) => x.ms),
        cpuOf(turns.nullServer),
      ),
      row(
        'resumable v2 upload (SDK, 4 MiB parts) to the emulator',
        turns.emulator.map((x) => x.ms),
        cpuOf(turns.emulator),
      ),
      [`resumable v2 upload (plain fetch, 4 MiB parts), ${sizeMiB} MiB`, `${mbps(bytes, rawMs)} MB/s`, `${rawMs.toFixed(0)} ms`],
    ],
    ratios: [
      `emulator ÷ null server upload rate: ${median(perRound).toFixed(2)}${rounds > 1 ? ` (median of the rounds' ${perRound.map((r) => r.toFixed(2)).join(', ')})` : ''}; goal at least 0.90: ${median(perRound) >= 0.9 ? 'met' : 'not met'}`,
      `emulator ÷ plain copy rate: ${median(copyRatio).toFixed(2)}`,
    ],
  };
}

/** `fileCount` form uploads of 1 KiB, `concurrency` at a time. */
async function formUploads(config: qiniu.conf.Config, upToken: string): Promise<Row> {
  const form = new qiniu.form_up.FormUploader(config);
  const small = randomBytes(1024);
  let next = 0;
  const t = performance.now();
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
  return [
    `form uploads, ${fileCount} x 1 KiB, ${concurrency} at a time`,
    `${(fileCount / (formMs / 1000)).toFixed(0)} files/s`,
    `${formMs.toFixed(0)} ms`,
  ];
}

/** Keys seeded straight into the metadata DB (uploading 100k files would be the form uploads again). */
function seedKeys(work: string): Row {
  const db = new MetadataStore(join(work, 'data', 'storage', 'metadata.sqlite'));
  const t = performance.now();
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
  return [`seed ${keyCount} keys into SQLite`, '', `${(performance.now() - t).toFixed(0)} ms`];
}

/** A console browsing a bucket lists page after page: the figure is the steady one, after ten pages to warm up. */
async function steadyMedian(once: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < 10; i++) await once();
  const times: number[] = [];
  for (let i = 0; i < 15; i++) {
    const t = performance.now();
    await once();
    times.push(performance.now() - t);
  }
  return median(times);
}

/** One 1000-key page from the middle of the seeded keys, through the SDK and over plain HTTP. */
async function listPages(host: string, mac: qiniu.auth.digest.Mac, config: qiniu.conf.Config): Promise<Row[]> {
  const bm = new qiniu.rs.BucketManager(mac, config);
  const first = await bm.listPrefix('bench', { prefix: 'many/', limit: 1000 });
  const middle = await bm.listPrefix('bench', {
    prefix: 'many/',
    limit: 1000,
    marker: Buffer.from(JSON.stringify({ c: 0, k: `many/${String(Math.floor(keyCount / 2)).padStart(7, '0')}.txt` })).toString('base64url'),
  });
  if (first.data.items.length !== 1000 || middle.data.items.length !== 1000) throw new Error('list returned fewer than 1000 items');
  const sdkList = await steadyMedian(() => bm.listPrefix('bench', { prefix: 'many/', limit: 1000, marker: middle.data.marker }));
  // The same page over plain HTTP (QBox-signed fetch): the emulator's share without the SDK's own work.
  const path = `/list?bucket=bench&prefix=many%2F&limit=1000&marker=${middle.data.marker}`;
  const sign = createHmac('sha1', SK).update(`${path}\n`).digest('base64').replace(/\+/g, '-').replace(/\//g, '_');
  const plainList = await steadyMedian(async () => {
    const response = await fetch(`http://${host}${path}`, { method: 'POST', headers: { Authorization: `QBox ${AK}:${sign}` } });
    const page = (await response.json()) as { items?: unknown[] };
    if (page.items?.length !== 1000) throw new Error(`plain list answered ${response.status} without 1000 items`);
  });
  return [
    [`list page of 1000 out of ${keyCount} keys (SDK, mid-bucket marker, median of 15 after 10)`, '', `${sdkList.toFixed(1)} ms`],
    [`list page of 1000 out of ${keyCount} keys (plain fetch, median of 15 after 10)`, '', `${plainList.toFixed(1)} ms`],
  ];
}

async function main(): Promise<void> {
  const work = await mkdtemp(join(tmpdir(), 'kodo-bench-'));
  const emulator: Child = values['in-process']
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
  const startLoad = loads();
  const rows: Row[] = [];
  let ratios: string[] = [];
  try {
    const big = await bigUploadRounds({ host, emulator, config, mac, token, work });
    rows.push(...big.rows);
    ratios = big.ratios;
    rows.push(await formUploads(config, token('bench')));
    rows.push(seedKeys(work));
    rows.push(...(await listPages(host, mac, config)));
  } finally {
    await emulator.close();
    await rm(work, { recursive: true, force: true });
  }
  const where = values['in-process'] ? 'emulator in the same process as the SDK' : 'emulator in its own process';
  console.log(
    `\nKodo emulator benchmark, ${where} (--size-mib ${sizeMiB} --files ${fileCount} --keys ${keyCount} --rounds ${rounds}; the full-size run is --size-mib 1024); load average ${startLoad} at the start, ${loads()} at the end\n`,
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
