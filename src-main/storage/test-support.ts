import { rm } from 'node:fs/promises';
import { request } from 'node:http';
import qiniu from 'qiniu';
import { expect } from 'vitest';
import { startEngine } from '../engine/engine';
import type { Runtime } from '../engine/engine-context';
import { configSchemas } from '../engine/modules';
import { startTestEngine, type TestEngine } from '../engine/test-engine';
import { storageEmulatorModule } from './emulator/storage-emulator-module';
import { createStorageClientModule } from './client/storage-client-module';

// Test support for the storage client: an engine with the emulator (two accounts) and the
// client, and puts through the official SDK as another app of the account would make them.
// It sits beside client/ and emulator/ because it needs both; lint keeps the emulator out of client/.

export const LOCAL = { ak: 'local-ak', sk: 'local-sk-secret' };
export const OTHER = { ak: 'other-ak', sk: 'other-sk-secret-value' };

export interface RunningStorage {
  running: TestEngine;
  /** The emulator's port. */
  port: number;
  call: (method: string, input?: unknown) => Promise<unknown>;
}

/**
 * `emulatorPort`: a fixed port, so an engine started again on the same folder is found where it
 * was; `runtime`: `electron` for what only the desktop app may do (upload files named by path).
 */
export async function startStorage(emulatorPort = 0, runtime: Runtime = 'headless'): Promise<RunningStorage> {
  const running = await startTestEngine({
    runtime,
    modules: [storageEmulatorModule, createStorageClientModule()],
    config: [
      'data_dir: ./data',
      'api:\n  listen: 127.0.0.1:0',
      'log:\n  level: warn',
      'storage:\n  emulator:',
      `    listen: 127.0.0.1:${emulatorPort}`,
      '    accounts:',
      `      - access_key: ${LOCAL.ak}\n        secret_key: ${LOCAL.sk}\n        buckets:\n          - name: photos\n            domains: [photos.test]\n          - name: vault\n            private: true\n            domains: [vault.localhost]`,
      `      - access_key: ${OTHER.ak}\n        secret_key: ${OTHER.sk}\n        buckets:\n          - name: theirs`,
      '',
    ].join('\n'),
  });
  // The emulator publishes the port it really bound; the client's local account reads the same.
  const port = Number(new URL(running.engine.context.addresses.get('storage-emulator')!).port);
  return { running, port, call: (method, input) => running.engine.services.call('storage', method, input) };
}

/** Closes the engine and starts it again on the same config and data folder, as a user reopening the app. */
export async function restartStorage(previous: TestEngine): Promise<TestEngine> {
  await previous.engine.close();
  const engine = await startEngine({
    runtime: 'headless',
    version: 'test',
    modules: [storageEmulatorModule, createStorageClientModule()],
    configPath: previous.configPath,
    env: {},
    listen: { host: '127.0.0.1', port: 0 },
    logSink: { write: (line) => previous.logLines.push(line) },
    configSchemas,
  });
  return {
    ...previous,
    engine,
    async stop() {
      await engine.close();
      await rm(previous.dir, { recursive: true, force: true });
    },
  };
}

export function sdk(port: number) {
  const mac = new qiniu.auth.digest.Mac(LOCAL.ak, LOCAL.sk);
  const host = `127.0.0.1:${port}`;
  const config = new qiniu.conf.Config({ zone: new qiniu.conf.Zone([host], [host], host, host, host, host), useHttpsDomain: false });
  return { mac, config };
}

/** Puts objects with the official SDK, as another app of the account would (body: `content of <key>` unless given). */
export async function put(port: number, bucket: string, keys: string[], body?: (key: string) => Buffer): Promise<void> {
  const { mac, config } = sdk(port);
  const uploader = new qiniu.form_up.FormUploader(config);
  for (const key of keys) {
    const token = new qiniu.rs.PutPolicy({ scope: `${bucket}:${key}` }).uploadToken(mac);
    const { resp } = await uploader.put(token, key, body?.(key) ?? Buffer.from(`content of ${key}`), new qiniu.form_up.PutExtra());
    expect(resp.statusCode).toBe(200);
  }
}

/** Many keys fast: one put, then batch copies of it, 1000 per request. */
export async function copies(port: number, bucket: string, source: string, keys: string[]): Promise<void> {
  const { mac, config } = sdk(port);
  const manager = new qiniu.rs.BucketManager(mac, config);
  for (let i = 0; i < keys.length; i += 1000) {
    const { resp } = await manager.batch(
      keys.slice(i, i + 1000).map((key) => qiniu.rs.copyOp(bucket, source, bucket, key, { force: true })),
    );
    expect(resp.statusCode).toBe(200);
  }
}

/** GET a link on a bucket domain through the emulator's port, with the link's host as Host (domains are routed by it). */
export function getThroughEmulator(port: number, link: string): Promise<{ status: number; body: string }> {
  const url = new URL(link);
  return new Promise((resolve, reject) => {
    request({ host: '127.0.0.1', port, path: url.pathname + url.search, headers: { Host: url.host } }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    })
      .on('error', reject)
      .end();
  });
}
