import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { buildNative } from './build-native.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const FOLDER = 'src-main/relay/native';
const STORAGE_FOLDER = 'src-main/storage/emulator/native';
const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** A project root holding only the addons' sources, to build into. */
function scratchRoot(): string {
  const dir = mkdtempSync(join(tmpdir(), 'rc-native-'));
  dirs.push(dir);
  for (const folder of [FOLDER, STORAGE_FOLDER]) cpSync(join(root, folder), join(dir, folder), { recursive: true });
  return dir;
}

describe.runIf(process.platform === 'linux')('scripts/build-native.mjs', () => {
  it('compiles the addons into dist/native, where they load with their functions; a second run keeps them; a changed source builds its addon again', () => {
    const dir = scratchRoot();
    expect(buildNative({ root: dir })).toEqual(['built', 'built']);
    const output = join(dir, 'dist', 'native', 'relay-native.node');
    const addon = createRequire(import.meta.url)(output) as Record<string, unknown>;
    expect(typeof addon.sendBatch).toBe('function');
    expect(typeof addon.bindUdp4).toBe('function');
    expect(addon.srtpCm).toBe(true); // Node's own OpenSSL functions were found
    const storage = createRequire(import.meta.url)(join(dir, 'dist', 'native', 'storage-native.node')) as Record<string, unknown>;
    expect(typeof storage.dropCachedRange).toBe('function');
    expect(buildNative({ root: dir })).toEqual(['up to date', 'up to date']);
    const later = new Date(Date.now() + 5_000);
    utimesSync(join(dir, FOLDER, 'udp-batch.c'), later, later);
    expect(buildNative({ root: dir })).toEqual(['built', 'up to date']);
  });

  it("fails with the compiler's message on a source that does not compile, leaving no partial file", () => {
    const dir = scratchRoot();
    writeFileSync(join(dir, FOLDER, 'srtp-cm.c'), 'this is not C;\n');
    expect(() => buildNative({ root: dir })).toThrow(/could not compile[\s\S]*srtp-cm\.c/);
    const outdir = join(dir, 'dist', 'native');
    expect(existsSync(outdir) ? readdirSync(outdir) : []).toEqual([]);
  });
});
