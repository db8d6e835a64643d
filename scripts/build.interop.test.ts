import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUNDLE_INPUTS, buildAll, inputsFingerprint } from './build.mjs';

// A small project in a temp folder, built with the real build script and Vite config.
const files: Record<string, string> = {
  'src-renderer/index.html': '<!doctype html><div id="root"></div><script type="module" src="./main.ts"></script>\n',
  'src-renderer/main.ts': "import { greeting } from '../src-shared/greeting';\ndocument.title = greeting;\n",
  'src-shared/greeting.ts': "export const greeting = 'hello';\n",
  'src-main/main.headless.ts': "import { greeting } from '../src-shared/greeting';\nconsole.log(greeting, 'main');\n",
  'src-main/preload/preload.ts': "console.log('preload');\n",
};

let root: string;
const write = async (path: string, text: string) => {
  await mkdir(dirname(join(root, path)), { recursive: true });
  await writeFile(join(root, path), text);
};
const mtime = async (path: string) => (await stat(join(root, path))).mtimeMs;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'rc-build-'));
  for (const [path, text] of Object.entries(files)) await write(path, text);
});
afterAll(async () => rm(root, { recursive: true, force: true }));

describe('build', () => {
  it('rebuilds only the bundles whose inputs changed', async () => {
    expect(await buildAll({ root, quiet: true })).toEqual({ renderer: true, main: true });
    const mainBuilt = await mtime('dist/main/headless.js');
    const rendererBuilt = await mtime('dist/renderer/index.html');

    expect(await buildAll({ root, quiet: true })).toEqual({ renderer: false, main: false });
    expect(await mtime('dist/main/headless.js')).toBe(mainBuilt);
    expect(await mtime('dist/renderer/index.html')).toBe(rendererBuilt);

    await write('src-main/main.headless.ts', "console.log('changed');\n");
    expect(await buildAll({ root, quiet: true })).toEqual({ renderer: false, main: true });
    await write('src-renderer/main.ts', "document.title = 'changed';\n");
    expect(await buildAll({ root, quiet: true })).toEqual({ renderer: true, main: false });
    await write('src-shared/greeting.ts', "export const greeting = 'hi';\n");
    expect(await buildAll({ root, quiet: true })).toEqual({ renderer: true, main: true });

    // A test beside the code is not bundled and changes nothing; a deleted output is rebuilt.
    await write('src-main/greeting.test.ts', 'export {};\n');
    await rm(join(root, 'dist', 'main', 'preload.cjs'));
    expect(await buildAll({ root, quiet: true })).toEqual({ renderer: false, main: true });
    expect(await buildAll({ root, quiet: true, force: true })).toEqual({ renderer: true, main: true });
  }, 60_000);

  it('builds the renderer for production whatever NODE_ENV the caller has, and leaves the caller its own', async () => {
    // vitest runs this with NODE_ENV=test; vite-node (the benchmarks) sets development.
    const callers = process.env.NODE_ENV;
    expect(callers).not.toBe('production');
    await write('src-renderer/main.ts', 'document.title = process.env.NODE_ENV;\n');
    await buildAll({ root, quiet: true });
    const bundle = await readdir(join(root, 'dist', 'renderer', 'assets'));
    const script = await readFile(
      join(
        root,
        'dist',
        'renderer',
        'assets',
        bundle.find((name) => name.endsWith('.js'))!,
      ),
      'utf8',
    );
    expect(script).toContain('document.title="production"');
    expect(process.env.NODE_ENV).toBe(callers);
  }, 60_000);

  it('fingerprints names as well as contents', async () => {
    const before = inputsFingerprint(root, BUNDLE_INPUTS.main);
    await write('src-main/new-file.ts', '');
    expect(inputsFingerprint(root, BUNDLE_INPUTS.main)).not.toBe(before);
    await rm(join(root, 'src-main', 'new-file.ts'));
    expect(inputsFingerprint(root, BUNDLE_INPUTS.main)).toBe(before);
  });
});
