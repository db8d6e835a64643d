// Shared set-up for the emulator's tests: a real emulator on a free port, real files in a temp
// dir, and the official qiniu SDK pointed at it by configuration only.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import qiniu from 'qiniu';
import { createMemoryLogger } from '../../platform/logger';
import { createStorageEmulator, type RunningStorageEmulator } from './storage-emulator';
import type { AccountInput } from './emulator-config';

export const AK = 'test-access-key';
export const SK = 'test-secret-key';
export const AK2 = 'other-access-key';
export const SK2 = 'other-secret-key';

export interface TestEmulator {
  emulator: RunningStorageEmulator;
  dir: string;
  host: string;
  /** Moves the emulator clock (ms) relative to real time. */
  shift(ms: number): void;
  mac: qiniu.auth.digest.Mac;
  config: qiniu.conf.Config;
  close(): Promise<void>;
}

function testAccounts(mirror?: string): AccountInput[] {
  return [
    {
      access_key: AK,
      secret_key: SK,
      dir_refresh: false,
      buckets: [
        { name: 'pub', domains: ['pub.test'] },
        { name: 'priv', private: true, domains: ['priv.test'] },
        { name: 'leech', domains: ['leech.test'], anti_leech_key: 'encryptKey' },
        { name: 'fast', domains: ['fast.test'], accelerate_domain: 'fast.kodo-accelerate.cn-east-1.qiniucs.com' },
        ...(mirror ? [{ name: 'mirrored', domains: ['mirror.test'], mirror }] : []),
      ],
    },
    { access_key: AK2, secret_key: SK2, dir_refresh: true, buckets: [{ name: 'other', domains: ['other.test'] }] },
  ];
}

export function sdkConfig(host: string): qiniu.conf.Config {
  const zone = new qiniu.conf.Zone([host], [host], host, host, host, host);
  const uc = new qiniu.httpc.StaticEndpointsProvider([new qiniu.httpc.Endpoint(host, { defaultScheme: 'http' })]);
  return new qiniu.conf.Config({ zone, useHttpsDomain: false, ucEndpointsProvider: uc });
}

export async function startTestEmulator(
  options: { mirror?: string; dataDir?: string; port?: number; workflows?: Record<string, string> } = {},
): Promise<TestEmulator> {
  const dir = options.dataDir ?? (await mkdtemp(join(tmpdir(), 'kodo-emu-')));
  let offset = 0;
  const emulator = await createStorageEmulator({
    listen: `127.0.0.1:${options.port ?? 0}`,
    dataDir: dir,
    accounts: testAccounts(options.mirror),
    logger: createMemoryLogger(),
    clock: () => Date.now() + offset,
    workflows: options.workflows,
  });
  const host = `127.0.0.1:${emulator.port}`;
  return {
    emulator,
    dir,
    host,
    shift: (ms) => {
      offset = ms;
    },
    mac: new qiniu.auth.digest.Mac(AK, SK),
    config: sdkConfig(host),
    close: async () => {
      await emulator.close();
      if (!options.dataDir) await rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The standalone emulator in a child process (`command`: what runs main.storage-emulator, from
 * source or a bundle), with a bucket `pub` of AK's. `port` settles once it says where it listens
 * (the child is there before, for a test to kill whatever happens).
 */
export async function startEmulatorProcess(dataDir: string, command: string[]): Promise<{ child: ChildProcess; port: Promise<number> }> {
  const config = join(dataDir, 'config.yaml');
  await writeFile(
    config,
    `data_dir: ${dataDir}\nlog:\n  level: warn\nstorage:\n  emulator:\n    listen: 127.0.0.1:0\n    accounts:\n      - access_key: ${AK}\n        secret_key: ${SK}\n        buckets:\n          - name: pub\n            domains: [pub.test]\n`,
  );
  const child = spawn(process.execPath, [...command, '--config', config], { stdio: ['ignore', 'pipe', 'pipe'] });
  const port = new Promise<number>((resolvePort, reject) => {
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /at http:\/\/127\.0\.0\.1:(\d+)/.exec(out);
      if (m) resolvePort(Number(m[1]));
    });
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('exit', (code) => reject(new Error(`emulator exited ${code}: ${out}`)));
  });
  return { child, port };
}

export function uploadToken(policy: Record<string, unknown>, ak = AK, sk = SK): string {
  const putPolicy = new qiniu.rs.PutPolicy(policy as unknown as qiniu.rs.PutPolicyOptions);
  return putPolicy.uploadToken(new qiniu.auth.digest.Mac(ak, sk));
}

/** GET through the emulator port with a chosen Host header (domain routing). */
export function httpGet(
  port: number,
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Headers; body: Buffer }> {
  // node:http rather than fetch: fetch does not let a caller choose the Host header.
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const out = new Headers();
        for (const [k, v] of Object.entries(res.headers)) if (typeof v === 'string') out.set(k, v);
        resolve({ status: res.statusCode ?? 0, headers: out, body: Buffer.concat(chunks) });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

export interface Recorder {
  url: string;
  requests: { method: string; url: string; headers: IncomingMessage['headers']; body: Buffer }[];
  close(): Promise<void>;
}

/** A small HTTP server that records requests and answers with `reply`. */
export async function startRecorder(
  reply: (req: IncomingMessage, body: Buffer) => { status: number; body: string | Buffer; type?: string },
): Promise<Recorder> {
  const requests: Recorder['requests'] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      const answer = reply(req, body);
      res.writeHead(answer.status, { 'Content-Type': answer.type ?? 'application/json' });
      res.end(answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
