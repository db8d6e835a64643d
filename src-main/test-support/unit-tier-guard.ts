import { createRequire, syncBuiltinESMExports } from 'node:module';

/**
 * Setup of the unit tier: a test there runs pure code and in-process fakes, so it finishes in
 * milliseconds and can run between two edits. A test that starts a process (ffmpeg, GStreamer,
 * a browser, an SDK's runtime) fails at once with the way out, instead of slowing the tier down
 * unnoticed: such a test belongs in the interop tier, named `*.interop.test.ts`.
 */
const require = createRequire(import.meta.url);
const childProcess = require('node:child_process') as Record<string, unknown>;

for (const name of ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork']) {
  childProcess[name] = (command: unknown) => {
    throw new Error(
      `the unit tier starts no process (asked: ${String(command)}): a test that needs one belongs in a *.interop.test.ts file`,
    );
  };
}
// ESM `import { spawn } from 'node:child_process'` reads the builtin's exports: update them too.
syncBuiltinESMExports();
