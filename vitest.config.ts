import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { viteAliases } from './scripts/aliases.mjs';

const sources = [
  'src-main/**/*.test.ts',
  'src-shared/**/*.test.ts',
  'src-renderer/**/*.test.{ts,tsx}',
  'scripts/**/*.test.ts',
  'bench/**/*.test.ts',
];
/** Tests that need a program outside this process (ffmpeg, GStreamer, Chromium, Node as a child) or an official SDK. */
const interop = ['**/*.interop.test.ts', '**/*.sdk.test.ts'];
/** Property tests of every parser that reads the network (a fixed count of cases; `npm run fuzz` gives them time). */
const fuzz = ['**/*.fuzz.test.ts'];

// Three tiers, as vitest projects: `npm run test:unit` (the one to run between two edits: pure code
// and in-process fakes, no process, no browser), `interop` (the real peers) and `fuzz`.
// `npm test` runs them all; e2e specs run under Playwright.
export default defineConfig({
  test: {
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Most interop files wait on real time (ffmpeg pacing a stream, a camera's timeout), not on
    // a core: with vitest's default of one worker fewer than the cores, a 2-core machine ran one
    // file at a time and left a core idle a third of the time.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // Each worker keeps the modules it has loaded from one test file to the next: loading the
    // engine's dependencies again for each of some 280 files took more time than the tests.
    // Nothing in the code keeps state at module level, so files do not see each other's.
    isolate: false,
    projects: [
      {
        extends: true,
        // A test that starts a process fails there with the way out (name it *.interop.test.ts).
        test: {
          name: 'unit',
          include: sources,
          exclude: [...interop, ...fuzz, '**/node_modules/**'],
          setupFiles: ['src-main/test-support/unit-tier-guard.ts'],
        },
      },
      { extends: true, test: { name: 'interop', include: interop, exclude: ['**/node_modules/**'] } },
      { extends: true, test: { name: 'fuzz', include: fuzz, exclude: ['**/node_modules/**'] } },
    ],
  },
  esbuild: { jsx: 'automatic' },
  resolve: { alias: viteAliases() },
});
