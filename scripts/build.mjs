// Builds everything `npm start` and the packaged app run: the renderer (Vite) into
// dist/renderer, and the main-process entries (esbuild) into dist/main.
import { build as viteBuild } from 'vite';
import { build as esbuild } from 'esbuild';
import { readdirSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Every `src-main/**\/main.<name>.ts` is an entry: main.headless, main.electron, tools. */
function findEntries(dir, found = []) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) findEntries(path, found);
    else if (/^main\.[\w-]+\.ts$/.test(name)) found.push(path);
  }
  return found;
}

export async function buildAll({ quiet = false } = {}) {
  const started = Date.now();
  await viteBuild({ configFile: join(root, 'vite.config.ts'), logLevel: quiet ? 'warn' : 'info' });
  const names = await buildMain();
  if (!quiet) {
    console.log(`built dist: renderer, ${names.map((n) => `dist/main/${n}.js`).join(', ')}, dist/main/preload.cjs in ${Date.now() - started} ms`);
  }
}

/** The main-process entries only (what the standalone tools need); returns their names. */
export async function buildMain() {
  const entries = findEntries(join(root, 'src-main'));
  const entryPoints = Object.fromEntries(entries.map((path) => [basename(path, '.ts').replace(/^main\./, ''), path]));
  await esbuild({
    entryPoints,
    outdir: join(root, 'dist', 'main'),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    sourcemap: true,
    logLevel: 'warning',
  });
  // A sandboxed preload must be one CommonJS file that requires nothing but electron.
  await esbuild({
    entryPoints: [join(root, 'src-main', 'preload', 'preload.ts')],
    outfile: join(root, 'dist', 'main', 'preload.cjs'),
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['electron'],
    logLevel: 'warning',
  });
  return Object.keys(entryPoints);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  buildAll().catch((error) => {
    console.error(error.message);
    process.exit(1);
  });
}
