// `npm test`: format, lint, typecheck, import cycles, unused code (knip), the native addon, the three vitest tiers in
// one run (unit, interop, fuzz), then the end-to-end tests (Playwright driving Chromium against
// the built headless console). Ends with one summary line.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const results = join(root, 'test-results');
mkdirSync(results, { recursive: true });
const bin = (name) => join(root, 'node_modules', '.bin', name);

const steps = [
  // The layout prettier.config.js gives (`npm run format` writes it).
  ['format', bin('prettier'), ['--check', '--log-level', 'warn', '.']],
  ['lint', bin('eslint'), ['--max-warnings', '0', '.']],
  // One program per environment (renderer: DOM; main: Node; shared: neither).
  ['typecheck', process.execPath, [join(root, 'scripts', 'typecheck.mjs')]],
  // No import cycle, type imports included: a cycle is a layer that knows too much.
  [
    'cycles',
    bin('madge'),
    [
      '--circular',
      '--extensions',
      'ts,tsx',
      '--ts-config',
      'tsconfig.json',
      'src-main',
      'src-renderer',
      'src-shared',
      'e2e',
      'scripts',
      'bench',
    ],
  ],
  // No file, dependency or export that nothing uses (knip.config.ts lists what the project runs).
  ['knip', bin('knip'), ['--no-progress']],
  // The relay's addon, as npm install built it (again if its sources changed since): the tests load it.
  ['native', process.execPath, [join(root, 'scripts', 'build-native.mjs')]],
  ['vitest', bin('vitest'), ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${join(results, 'unit-results.json')}`]],
  ['build', process.execPath, [join(root, 'scripts', 'build.mjs')]],
  ['e2e', bin('playwright'), ['test', '-c', join(root, 'e2e', 'playwright.config.ts')]],
];

const failedSteps = [];
for (const [name, command, args] of steps) {
  console.log(`\n=== ${name} ===`);
  const started = Date.now();
  const run = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  console.log(`=== ${name}: ${run.status === 0 ? 'ok' : 'FAILED'} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  if (run.status !== 0) failedSteps.push(name);
  // Later steps are meaningless without a build or with a broken typecheck.
  if (run.status !== 0 && (name === 'build' || name === 'typecheck')) break;
}

function count(file, read) {
  if (!existsSync(file)) return { passed: 0, failed: 0 };
  try {
    return read(JSON.parse(readFileSync(file, 'utf8')));
  } catch {
    return { passed: 0, failed: 0 };
  }
}
const unit = count(join(results, 'unit-results.json'), (r) => ({ passed: r.numPassedTests ?? 0, failed: r.numFailedTests ?? 0 }));
const e2e = count(join(results, 'e2e-results.json'), (r) => ({
  passed: r.stats?.expected ?? 0,
  failed: (r.stats?.unexpected ?? 0) + (r.stats?.flaky ?? 0),
}));
const passed = unit.passed + e2e.passed;
const failed = unit.failed + e2e.failed + (failedSteps.length > 0 && unit.failed + e2e.failed === 0 ? 1 : 0);

console.log(
  `\nvitest (unit, interop, fuzz): ${unit.passed} passed, ${unit.failed} failed; e2e: ${e2e.passed} passed, ${e2e.failed} failed`,
);
if (failedSteps.length > 0) console.log(`failed steps: ${failedSteps.join(', ')}`);
console.log(`tests: ${passed} passed, ${failed} failed`);
process.exit(failedSteps.length > 0 ? 1 : 0);
