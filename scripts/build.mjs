// Builds everything `npm start` and the packaged app run: the renderer (Vite) into
// dist/renderer, and the main-process entries (esbuild) into dist/main. A bundle whose inputs
// have not changed since its last build is kept (a stamp in dist/ holds their fingerprint), so
// `npm start` after a one-line change to main does not rebuild the renderer, and vice versa.
import { build as viteBuild } from 'vite';
import { build as esbuild } from 'esbuild';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildNative } from './build-native.mjs';

const projectRoot = fileURLToPath(new URL('..', import.meta.url));

/** What each bundle is made of: a change to any file under these paths rebuilds it. */
export const BUNDLE_INPUTS = {
  renderer: [
    'src-renderer',
    'src-shared',
    'assets',
    'vite.config.ts',
    'scripts/aliases.mjs',
    'package.json',
    'package-lock.json',
    'scripts/build.mjs',
  ],
  main: ['src-main', 'src-shared', 'package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.base.json', 'scripts/build.mjs'],
};

/** Tests and docs sit beside the code but are never bundled. */
const NOT_BUNDLED = /\.test\.tsx?$|\.md$/;

function listFiles(path, found) {
  if (!existsSync(path)) return;
  if (!statSync(path).isDirectory()) {
    found.push(path);
    return;
  }
  for (const name of readdirSync(path)) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const child = join(path, name);
    if (statSync(child).isDirectory() || !NOT_BUNDLED.test(name)) listFiles(child, found);
  }
}

/** A hash of the names and contents of every input file (a deleted or added file changes it too). */
export function inputsFingerprint(root, inputs) {
  const files = [];
  for (const input of inputs) listFiles(join(root, input), files);
  const hash = createHash('sha256');
  for (const file of files.map((f) => relative(root, f).split('\\').join('/')).sort()) {
    hash.update(`${file}\0`);
    hash.update(readFileSync(join(root, file)));
    hash.update('\0');
  }
  return hash.digest('hex');
}

const stampPath = (root, bundle) => join(root, 'dist', `.${bundle}-inputs.sha256`);

/** Up to date: built from exactly these inputs, and every output it made is still there. */
export function isUpToDate(root, bundle, fingerprint, outputs) {
  const stamp = stampPath(root, bundle);
  return existsSync(stamp) && readFileSync(stamp, 'utf8') === fingerprint && outputs.every((output) => existsSync(output));
}

/**
 * Runs `build` unless the bundle is up to date; the stamp is removed first and written only after
 * a build that succeeded, so a failed or interrupted build is never taken for a good one.
 */
async function buildIfChanged(root, bundle, outputs, force, build) {
  const fingerprint = inputsFingerprint(root, BUNDLE_INPUTS[bundle]);
  if (!force && isUpToDate(root, bundle, fingerprint, outputs)) return false;
  rmSync(stampPath(root, bundle), { force: true });
  await build();
  mkdirSync(join(root, 'dist'), { recursive: true });
  writeFileSync(stampPath(root, bundle), fingerprint);
  return true;
}

function findFiles(dir, pattern, found = []) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) findFiles(path, pattern, found);
    else if (pattern.test(name)) found.push(path);
  }
  return found;
}

/** Every `src-main/**\/main.<name>.ts` is an entry: main.headless, main.electron, tools. */
const entryPointsOf = (root) =>
  Object.fromEntries(
    findFiles(join(root, 'src-main'), /^main\.[\w-]+\.ts$/).map((path) => [basename(path, '.ts').replace(/^main\./, ''), path]),
  );

/**
 * Every `src-main/**\/<name>.thread.ts` is a worker thread's script, bundled with what it imports
 * to dist/main/<name>.thread.cjs, beside the bundles that start it (they find it from their own
 * import.meta.url).
 */
const threadEntryPointsOf = (root) =>
  Object.fromEntries(findFiles(join(root, 'src-main'), /^[\w-]+\.thread\.ts$/).map((path) => [basename(path, '.ts'), path]));

/**
 * Runs a renderer build with NODE_ENV=production, then puts the caller's NODE_ENV back. Vite
 * keeps a NODE_ENV it finds set: built from vite-node (the benchmarks; it sets development) or
 * vitest (test), the bundle held React's development build, half again as large and several
 * times slower to start.
 */
async function asProduction(build) {
  const callers = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    return await build();
  } finally {
    if (callers === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = callers;
  }
}

/** Builds what changed; resolves with which bundles were built (false: kept as they were). */
export async function buildAll({ quiet = false, force = false, root = projectRoot } = {}) {
  const started = Date.now();
  const renderer = await buildIfChanged(root, 'renderer', [join(root, 'dist', 'renderer', 'index.html')], force, () =>
    asProduction(() =>
      viteBuild({ configFile: join(projectRoot, 'vite.config.ts'), root: join(root, 'src-renderer'), logLevel: quiet ? 'warn' : 'info' }),
    ),
  );
  const main = await buildMainIfChanged(root, force);
  const native = buildNative({ root, force });
  if (!quiet) {
    const said = (built, what) => `${what} ${built ? 'built' : 'up to date'}`;
    const entries = [...Object.keys(entryPointsOf(root)), ...Object.keys(threadEntryPointsOf(root)), 'preload'].join(', ');
    console.log(
      `${said(renderer, 'dist/renderer')}, ${said(main, `dist/main (${entries})`)}, dist/native ${native.join(', ')} in ${Date.now() - started} ms`,
    );
  }
  return { renderer, main };
}

/** The main-process entries only (what the standalone tools need); resolves with their names. */
export async function buildMain({ force = false, root = projectRoot } = {}) {
  await buildMainIfChanged(root, force);
  buildNative({ root, force });
  return Object.keys(entryPointsOf(root));
}

/**
 * V8 keeps a module's source text for its lifetime, one byte a character only if every character
 * is ASCII: one other character (esbuild escapes them in strings, but keeps the comments that
 * document class fields and object properties) doubles the main bundle's 1.3 MB in memory.
 */
function assertAsciiBundle(file) {
  const text = readFileSync(file, 'utf8');
  const at = text.search(/[^\t\n\r\x20-\x7e]/);
  if (at === -1) return;
  const line = text.slice(0, at).split('\n').length;
  throw new Error(
    `${relative(projectRoot, file)}:${line} has the character U+${text.codePointAt(at).toString(16).padStart(4, '0')} (outside printable ASCII): write it in ASCII (in a comment, words; in a string, a \\u escape) so V8 keeps the bundle one byte a character`,
  );
}

/** What bundleMain writes into its folder. */
function mainOutputs(root, outdir) {
  return [
    ...Object.keys(entryPointsOf(root)).map((name) => join(outdir, `${name}.js`)),
    ...Object.keys(threadEntryPointsOf(root)).map((name) => join(outdir, `${name}.cjs`)),
    join(outdir, 'preload.cjs'),
  ];
}

/** Bundles every main-process entry, worker thread and the preload into `outdir` (dist/main, or a test's folder). */
export async function bundleMain(root, outdir) {
  const entryPoints = entryPointsOf(root);
  const threads = threadEntryPointsOf(root);
  await esbuild({
    entryPoints,
    outdir,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node24',
    packages: 'external',
    sourcemap: true,
    logLevel: 'warning',
  });
  for (const name of Object.keys(entryPoints)) assertAsciiBundle(join(outdir, `${name}.js`));
  // A worker thread's script is one CommonJS file, as the preload: require is all it needs to
  // load, under Node and from inside Electron's app archive.
  if (Object.keys(threads).length > 0) {
    await esbuild({
      entryPoints: threads,
      outdir,
      outExtension: { '.js': '.cjs' },
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node24',
      sourcemap: true,
      logLevel: 'warning',
    });
    for (const name of Object.keys(threads)) assertAsciiBundle(join(outdir, `${name}.cjs`));
  }
  // A sandboxed preload must be one CommonJS file that requires nothing but electron.
  await esbuild({
    entryPoints: [join(root, 'src-main', 'preload', 'preload.ts')],
    outfile: join(outdir, 'preload.cjs'),
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node24',
    external: ['electron'],
    logLevel: 'warning',
  });
}

function buildMainIfChanged(root, force) {
  const outdir = join(root, 'dist', 'main');
  return buildIfChanged(root, 'main', mainOutputs(root, outdir), force, () => bundleMain(root, outdir));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  buildAll({ force: process.argv.includes('--force') }).catch((error) => {
    console.error(error.message);
    process.exit(1);
  });
}
