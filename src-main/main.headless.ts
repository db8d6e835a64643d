import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import { appRootFrom, readAppVersion } from './engine/app-root';
import { runEngine } from './engine/lifecycle';
import { configSchemas, engineModules } from './engine/modules';
import { listenProblem, parseListen } from './platform/config/app-settings';
import { helpText, parseCommandLine, UsageError } from './cli-options.mjs';
import { nodeVersionProblem } from './platform/node-version.mjs';
import { installSignalStop } from './platform/stop-on-signal';

/**
 * The console without a desktop: the engine under plain Node, the renderer served to any
 * browser at the API address. `npm run serve -- --config <file.yaml>`.
 */
async function main(): Promise<void> {
  // Built and tested on the Node that Electron bundles: an older one gets a sentence, not a failure later.
  const tooOld = nodeVersionProblem();
  if (tooOld) {
    console.error(tooOld);
    process.exit(1);
  }
  const values = parseCommandLine(process.argv.slice(2));
  if (values.help) {
    console.log(helpText());
    return;
  }
  const listenIsWrong = values.listen === undefined ? undefined : listenProblem(values.listen);
  if (listenIsWrong) throw new UsageError(`--listen ${values.listen}: ${listenIsWrong}`);
  // Before the start: a signal while modules start stops the engine as soon as it is up.
  let log: (message: string, fields: Record<string, unknown>) => void = (message) => console.error(`Relay Console: ${message}`);
  const signals = installSignalStop({ exit: (code) => process.exit(code), note: (message, fields) => log(message, fields) });
  const appRoot = appRootFrom(import.meta.url);
  const lifecycle = await runEngine(
    {
      runtime: 'headless',
      version: readAppVersion(appRoot),
      configPath: values.config ? resolve(values.config) : undefined,
      listen: values.listen ? parseListen(values.listen) : undefined,
      configSchemas,
      modules: engineModules({ rendererDir: join(appRoot, 'dist', 'renderer'), sessionToken: randomBytes(32).toString('hex') }),
    },
    (code) => process.exit(code),
    (engine) => console.log(`Relay Console restarted at ${engine.url}/`),
  );
  console.log(`Relay Console (headless) at ${lifecycle.current().url}/`);
  console.log(`Config: ${lifecycle.current().context.config.path}`);
  log = (message, fields) => lifecycle.current().logger.info(message, fields);
  signals.started(() => lifecycle.stop());
}

main().catch((error: unknown) => {
  // A wrong command line exits 2, as command-line tools do; anything else that stops the start, 1.
  if (error instanceof UsageError) {
    console.error(`Relay Console: ${error.message}`);
    process.exit(2);
  }
  console.error(`Relay Console could not start: ${(error as Error).message}`);
  process.exit(1);
});
