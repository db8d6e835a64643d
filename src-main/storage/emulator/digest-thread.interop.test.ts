import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import qiniu from 'qiniu';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleMain } from '../../../scripts/build.mjs';
import { kodoEtag } from './encoding';
import { httpGet, sdkConfig, startEmulatorProcess, uploadToken } from './test-support';

// The digest thread is an entry of its own (digest.thread.ts): from source Node runs it as it is
// (digest-worker.test.ts); here it is loaded as the bundles load it, from beside them.
const root = fileURLToPath(new URL('../../..', import.meta.url));
let out: string;
let dataDir: string;
let child: ChildProcess | undefined;

beforeAll(async () => {
  // Inside the project (.tmp is ignored), so the bundles find its node_modules as dist/main does;
  // a folder of its own, so a build of dist/ running beside this test is not disturbed.
  await mkdir(join(root, '.tmp'), { recursive: true });
  out = await mkdtemp(join(root, '.tmp', 'bundle-'));
  dataDir = await mkdtemp(join(tmpdir(), 'kodo-bundle-'));
  await bundleMain(root, out);
}, 120_000);

afterAll(async () => {
  if (child?.exitCode === null) child.kill('SIGKILL');
  await rm(out, { recursive: true, force: true });
  await rm(dataDir, { recursive: true, force: true });
});

describe('the digest thread in the bundles', () => {
  it('is a bundle of its own beside the entries that start it', () => {
    for (const entry of ['headless.js', 'electron.js', 'storage-emulator.js']) {
      expect(readFileSync(join(out, entry), 'utf8')).toContain('./digest.thread.cjs');
    }
    expect(readFileSync(join(out, 'digest.thread.cjs'), 'utf8')).not.toMatch(/require\(["']\.\.?\//);
  });

  it('hashes a body of several blocks in the bundled storage emulator', async () => {
    const started = await startEmulatorProcess(dataDir, [join(out, 'storage-emulator.js')]);
    child = started.child;
    const host = `127.0.0.1:${await started.port}`;
    // Past the first megabyte a body is hashed on the thread; three blocks make the etag from its block sha1s.
    const data = randomBytes(2 * 4 * 1024 * 1024 + 12_345);
    const put = await new qiniu.form_up.FormUploader(sdkConfig(host)).put(
      uploadToken({ scope: 'pub:big.bin' }),
      'big.bin',
      data,
      new qiniu.form_up.PutExtra(),
    );
    expect(put.resp.statusCode).toBe(200);
    expect(put.data).toMatchObject({ hash: kodoEtag(data), key: 'big.bin' });
    expect((await httpGet(await started.port, '/download/pub/big.bin')).body.equals(data)).toBe(true);
  }, 60_000);
});
