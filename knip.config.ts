import type { KnipConfig } from 'knip';

// `npm run knip`: no file, dependency or export that nothing uses. The entries are every program
// the project runs; what they and the tests (found by knip's vitest and Playwright plugins)
// never reach is dead.
const config: KnipConfig = {
  entry: [
    // Main-process bundles, as scripts/build.mjs finds them: main.<name>.ts (the app, headless,
    // the emulators run by scripts/run-tool.mjs), worker threads and the preload.
    'src-main/**/main.*.ts',
    'src-main/**/*.thread.ts',
    'src-main/preload/preload.ts',
    'scripts/**/*.{mjs,cjs}',
    // Benches run by vite-node, and the peers they start as child processes.
    'bench/*.ts',
    'bench/{lib,peers}/*.mjs',
    // Engines that interop tests start in a child process by path (to kill them with SIGKILL).
    'src-main/**/test-support/*-engine.ts',
  ],
  project: ['src-main/**', 'src-renderer/**', 'src-shared/**', 'scripts/**', 'bench/**', 'e2e/**', '*.{ts,js}'],
  // Hand-written types of .mjs modules, read by TypeScript beside them.
  ignore: ['**/*.d.mts'],
  playwright: { config: ['e2e/playwright.config.ts'] },
  // Programs that tests and benches start, found on PATH (README: what `npm test` needs).
  ignoreBinaries: ['ffmpeg', 'ffprobe', 'dot', 'php'],
  // The official SDKs the interop tests drive are loaded by path (createRequire, a child's
  // import of a resolved URL), which no import statement shows.
  ignoreDependencies: ['@microsoft/microsoft-graph-client', '@microsoft/msgraph-sdk', '@microsoft/msgraph-sdk-users', 'onvif'],
};

export default config;
