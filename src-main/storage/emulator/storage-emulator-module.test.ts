import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import qiniu from 'qiniu';
import { startTestEngine } from '../../engine/test-engine';
import { storageEmulatorModule } from './storage-emulator-module';
import { httpGet, sdkConfig } from './test-support';

describe('storageEmulatorModule', () => {
  it('starts the demo account on storage.emulator.listen under data_dir, with sample files', async () => {
    const test = await startTestEngine({
      modules: [storageEmulatorModule],
      config: `data_dir: ./data\napi:\n  listen: 127.0.0.1:0\nlog:\n  level: info\nstorage:\n  emulator:\n    listen: 127.0.0.1:0\n`,
    });
    try {
      const line = test.logLines.find((l) => l.includes('storage emulator listening'))!;
      const port = Number(/127\.0\.0\.1:(\d+)/.exec(line)![1]);
      const keys = JSON.parse(await readFile(join(test.dir, 'data', 'storage', 'demo-account.json'), 'utf8')) as {
        access_key: string;
        secret_key: string;
      };
      expect(test.logLines.join('\n')).not.toContain(keys.secret_key);
      const bm = new qiniu.rs.BucketManager(new qiniu.auth.digest.Mac(keys.access_key, keys.secret_key), sdkConfig(`127.0.0.1:${port}`));
      const list = await bm.listPrefix('demo', {});
      expect(list.data.items.map((i: { key: string }) => i.key)).toEqual(['README.txt', 'data/sample.json', 'images/sample.png']);
      expect((await httpGet(port, '/README.txt', { Host: 'demo.kodo.localhost' })).status).toBe(200);
    } finally {
      await test.stop();
    }
  });

  it('a busy storage.emulator.listen is logged and the app still starts', async () => {
    const { createServer } = await import('node:net');
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const test = await startTestEngine({
        modules: [storageEmulatorModule],
        config: `data_dir: ./data\napi:\n  listen: 127.0.0.1:0\nstorage:\n  emulator:\n    listen: 127.0.0.1:${port}\n`,
      });
      try {
        expect(test.logLines.join('\n')).toMatch(/storage emulator not started: its address is in use/);
      } finally {
        await test.stop();
      }
    } finally {
      blocker.close();
    }
  });

  it('does not start with enabled: false, and a bad key fails start with its name', async () => {
    const off = await startTestEngine({
      modules: [storageEmulatorModule],
      config: `data_dir: ./data\napi:\n  listen: 127.0.0.1:0\nstorage:\n  emulator:\n    enabled: false\n`,
    });
    try {
      expect(off.logLines.join('\n')).not.toContain('storage emulator listening');
    } finally {
      await off.stop();
    }
    await expect(
      startTestEngine({
        modules: [storageEmulatorModule],
        config: `data_dir: ./data\napi:\n  listen: 127.0.0.1:0\nstorage:\n  emulator:\n    listen: 12345\n`,
      }),
    ).rejects.toThrow(/storage\.emulator\.listen/);
  });
});
