// `npm run fuzz -- --minutes N`: the fuzz properties (`*.fuzz.test.ts`) for about N minutes in
// all, instead of the few seconds each gets in `npm test`. A failure prints its seed and path;
// `RELAY_FUZZ_SEED=<seed> RELAY_FUZZ_PATH=<path> npm run fuzz` replays it.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
let values;
try {
  ({ values } = parseArgs({ options: { minutes: { type: 'string', default: '5' }, help: { type: 'boolean', short: 'h' } } }));
} catch (error) {
  console.error(`${error.message}; usage: npm run fuzz -- --minutes N`);
  process.exit(2);
}
if (values.help) {
  console.log('usage: npm run fuzz -- --minutes N   (runs every *.fuzz.test.ts for about N minutes in all)');
  process.exit(0);
}
const minutes = Number(values.minutes);
if (!Number.isFinite(minutes) || minutes <= 0) {
  console.error(`--minutes must be a number above 0, not "${values.minutes}"`);
  process.exit(2);
}

/** Every fuzz file under the sources, and how many time-boxed properties it has. */
function fuzzFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : fuzzFiles(path);
    return entry.name.endsWith('.fuzz.test.ts') ? [path] : [];
  });
}
const files = ['src-main', 'src-shared', 'src-renderer'].flatMap((dir) => fuzzFiles(join(root, dir)));
const properties = files.reduce(
  (sum, file) => sum + (readFileSync(file, 'utf8').match(/fuzz(?:Budget\(\)|Cases\(\d[\d_]*\))/g) ?? []).length,
  0,
);
// vitest runs two files at a time on this project's machines; each property gets its share,
// in rounds of at most ROUND_MS: a property runs synchronously, and a worker that does not
// answer vitest for much longer than that is taken for dead. Every round draws new seeds.
const ROUND_MS = 15_000;
const share = Math.max(1_000, Math.round((minutes * 60_000 * 2) / Math.max(1, properties)));
const rounds = Math.ceil(share / ROUND_MS);
const perRound = Math.round(share / rounds);
console.log(`fuzzing ${properties} properties in ${files.length} files: ${rounds} round(s) of ${(perRound / 1000).toFixed(0)} s each`);

for (let round = 1; round <= rounds; round++) {
  if (rounds > 1) console.log(`\n=== round ${round} of ${rounds} ===`);
  const run = spawnSync(join(root, 'node_modules', '.bin', 'vitest'), ['run', ...files.map((f) => relative(root, f))], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, RELAY_FUZZ_MS: String(perRound) },
  });
  if (run.status !== 0) process.exit(run.status ?? 1);
}
