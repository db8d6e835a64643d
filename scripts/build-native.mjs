// Compiles the native helpers (Node-API addons in C) into dist/native: the relay's batched UDP
// sends and SRTP protection for WebRTC viewers and direct writes to RTSP viewers (src-main/relay/native), and the
// storage emulator's page-cache release for uploaded parts (src-main/storage/emulator/native).
// Run by `npm install` (postinstall) and by scripts/build.mjs when their sources changed.
//
// Linux only (sendmmsg). Where there is no C compiler or no Node
// headers, nothing is built and each module does without (see `without` below), as on other
// systems; where both are there, a compile error fails the build (a broken addon must not pass
// unnoticed).
//
//   node scripts/build-native.mjs            # build what changed
//   node scripts/build-native.mjs --force    # build again
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const projectRoot = fileURLToPath(new URL('..', import.meta.url));

/** Each addon: its folder (from the project root), its C sources there, the file it becomes in dist/native, and what its module does without it. */
const ADDONS = [
  {
    folder: 'src-main/relay/native',
    sources: ['addon.c', 'udp-batch.c', 'srtp-cm.c', 'srtp-fanout.c', 'srtcp-cm.c', 'srtp-gcm.c', 'stream-write.c'],
    output: 'relay-native.node',
    without: "the relay uses Node's dgram, crypto and stream writes",
  },
  {
    folder: 'src-main/storage/emulator/native',
    sources: ['page-cache.c'],
    output: 'storage-native.node',
    without: 'uploaded parts stay in the page cache',
  },
];

const FLAGS = ['-O2', '-std=c11', '-D_GNU_SOURCE', '-Wall', '-Wextra', '-Werror', '-fPIC', '-shared', '-fvisibility=hidden'];
// dlsym (srtp-cm.c finds OpenSSL's functions in the host process); part of libc from glibc 2.34.
const LIBS = ['-ldl'];

/** The folder holding node_api.h for the Node that runs this script (npm's nodedir first, as node-gyp reads it). */
function nodeHeaders(env = process.env) {
  const candidates = [
    env.npm_config_nodedir && join(env.npm_config_nodedir, 'include', 'node'),
    join(dirname(process.execPath), '..', 'include', 'node'),
    '/usr/include/node',
  ].filter(Boolean);
  return candidates.find((dir) => existsSync(join(dir, 'node_api.h')));
}

function compiler(env = process.env) {
  for (const name of [env.CC, 'cc', 'gcc', 'clang'].filter(Boolean)) {
    if (spawnSync(name, ['--version'], { stdio: 'ignore' }).status === 0) return name;
  }
  return undefined;
}

function newer(a, b) {
  return statSync(a).mtimeMs > statSync(b).mtimeMs;
}

/**
 * Builds the addons whose output is missing or older than its source (or this script). Returns
 * what happened to each: 'built', 'up to date', or why it was skipped. Throws on a compile error.
 */
export function buildNative({ root = projectRoot, force = false } = {}) {
  if (process.platform !== 'linux') return ADDONS.map((addon) => `skipped (${process.platform}: ${addon.without})`);
  const outdir = join(root, 'dist', 'native');
  const results = [];
  for (const addon of ADDONS) {
    const folder = join(root, addon.folder);
    // A tree without the addon's sources (a test's partial copy of the project) has nothing to build.
    if (!existsSync(folder)) {
      results.push('skipped (no sources)');
      continue;
    }
    const inputs = [
      ...readdirSync(folder)
        .filter((name) => /\.[ch]$/.test(name))
        .map((name) => join(folder, name)),
      fileURLToPath(import.meta.url),
    ];
    const output = join(outdir, addon.output);
    if (!force && existsSync(output) && inputs.every((input) => newer(output, input))) {
      results.push('up to date');
      continue;
    }
    const headers = nodeHeaders();
    const cc = compiler();
    if (!headers || !cc) {
      results.push(`skipped (no ${!cc ? 'C compiler' : 'Node headers'}: ${addon.without})`);
      continue;
    }
    mkdirSync(outdir, { recursive: true });
    // Written beside and renamed: a process loading the addon never sees half a file.
    const partial = `${output}.${process.pid}.tmp`;
    const sources = addon.sources.map((name) => join(folder, name));
    const run = spawnSync(cc, [...FLAGS, `-I${headers}`, '-o', partial, ...sources, ...LIBS], { encoding: 'utf8' });
    if (run.status !== 0) {
      rmSync(partial, { force: true });
      throw new Error(`${cc} could not compile ${addon.folder}:\n${run.stderr || run.error?.message || ''}`);
    }
    renameSync(partial, output);
    results.push('built');
  }
  return results;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    const results = buildNative({ force: process.argv.includes('--force') });
    console.log(`dist/native: ${ADDONS.map((addon, i) => `${addon.output} ${results[i]}`).join(', ')}`);
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
}
