import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { readAppSettings } from '../../platform/config/app-settings';
import { openConfigStore } from '../../platform/config/config-store';
import { createLogger } from '../../platform/logger';
import { parseStorageSection } from './emulator-config';
import { createStorageEmulator } from './storage-emulator';

/** `npm run storage-emulator -- --config <file>`: the Kodo emulator alone. */
async function main(): Promise<void> {
  const { values } = parseArgs({ options: { config: { type: 'string', short: 'c' } }, allowPositionals: false });
  if (!values.config) throw new Error('usage: storage-emulator --config <file.yaml>');
  const path = resolve(values.config);
  if (!existsSync(path)) throw new Error(`config file ${path} does not exist`);
  const config = await openConfigStore({ path, createIfMissing: false });
  const settings = readAppSettings(config.effective(), path, { platform: process.platform, env: process.env, homedir: homedir() });
  const emulatorConfig = parseStorageSection(config.section('storage'));
  const logger = createLogger({ level: settings.logLevel });
  const emulator = await createStorageEmulator({
    listen: emulatorConfig.listen,
    dataDir: settings.dataDir,
    accounts: emulatorConfig.accounts,
    logger,
    maxClockSkewSeconds: emulatorConfig.max_clock_skew_seconds,
    workflows: emulatorConfig.workflows,
  });
  console.log(`Kodo storage emulator at ${emulator.url}`);
  console.log(`Data: ${settings.dataDir}/storage`);
  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    logger.info('stopping', { signal });
    void emulator.close().then(() => process.exit(0));
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((error: unknown) => {
  console.error(`storage emulator could not start: ${(error as Error).message}`);
  process.exit(1);
});
