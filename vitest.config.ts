import { defineConfig } from 'vitest/config';

// Unit and integration tests live beside the code they test; e2e specs run under Playwright.
export default defineConfig({
  test: {
    include: ['src-main/**/*.test.ts', 'src-shared/**/*.test.ts', 'src-renderer/**/*.test.{ts,tsx}', 'scripts/**/*.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
  esbuild: { jsx: 'automatic' },
});
