import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { appRootFrom, readAppVersion } from './engine/app-root';
import { runEngine } from './engine/lifecycle';
import { engineModules } from './engine/modules';
import { parseListen } from './platform/config/app-settings';

/**
 * The console without a desktop: the engine under plain Node, the renderer served to any
 * browser at the API address. `npm run serve -- --config <file.yaml>`.
 */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      config: { type: 'string', short: 'c' },
      listen: { type: 'string' },
    },
    allowPositionals: false,
  });
  const appRoot = appRootFrom(import.meta.url);
  const lifecycle = await runEngine(
    {
      runtime: 'headless',
      version: readAppVersion(appRoot),
      configPath: values.config ? resolve(values.config) : undefined,
      listen: values.listen ? parseListen(values.listen) : undefined,
      modules: engineModules({ rendererDir: join(appRoot, 'dist', 'renderer'), sessionToken: randomBytes(32).toString('hex') }),
    },
    (code) => process.exit(code),
    (engine) => console.log(`Relay Console restarted at ${engine.url}/`),
  );
  console.log(`Relay Console (headless) at ${lifecycle.current().url}/`);
  console.log(`Config: ${lifecycle.current().context.config.path}`);

  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    lifecycle.current().logger.info('stopping', { signal });
    void lifecycle.stop().then(() => process.exit(0));
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((error: unknown) => {
  console.error(`Relay Console could not start: ${(error as Error).message}`);
  process.exit(1);
});
