import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// Unit and integration tests live beside the code they test; e2e specs run under Playwright.
export default defineConfig({
  test: {
    include: ['src-main/**/*.test.ts', 'src-shared/**/*.test.ts', 'src-renderer/**/*.test.{ts,tsx}', 'scripts/**/*.test.ts', 'bench/**/*.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Most files wait on real time (ffmpeg pacing a stream, a camera's timeout), not on a core:
    // with vitest's default of one worker fewer than the cores, a 2-core machine ran one file at
    // a time and left a core idle a third of the time (563 s; two workers: 320 s).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // Each worker keeps the modules it has loaded from one test file to the next: loading the
    // engine's dependencies again for each of some 240 files took more time than the tests.
    // Nothing in the code keeps state at module level, so files do not see each other's.
    isolate: false,
  },
  esbuild: { jsx: 'automatic' },
});
