import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { readAppSettings } from '../../platform/config/app-settings';
import { openConfigStore } from '../../platform/config/config-store';
import { createLogger } from '../../platform/logger';
import { createDirectoryEmulator } from './directory-emulator';
import { emulatorOptions } from './directory-emulator-module';
import { parseDirectorySection } from './emulator-config';

/** `npm run directory-emulator -- --config <file>`: the Graph emulator alone. */
async function main(): Promise<void> {
  const { values } = parseArgs({ options: { config: { type: 'string', short: 'c' } }, allowPositionals: false });
  if (!values.config) throw new Error('usage: directory-emulator --config <file.yaml>');
  const path = resolve(values.config);
  if (!existsSync(path)) throw new Error(`config file ${path} does not exist`);
  const config = await openConfigStore({ path, createIfMissing: false });
  const settings = readAppSettings(config.effective(), path, { platform: process.platform, env: process.env, homedir: homedir() });
  const emulatorConfig = parseDirectorySection(config.section('directory'));
  const logger = createLogger({ level: settings.logLevel });
  const emulator = await createDirectoryEmulator(emulatorOptions(emulatorConfig, settings.dataDir, logger));
  console.log(`Graph directory emulator at ${emulator.url} (Graph: ${emulator.url}/v1.0, tokens: ${emulator.url}/${emulator.tenant}/oauth2/v2.0/token)`);
  console.log(`Data: ${settings.dataDir}/directory`);
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
  console.error(`directory emulator could not start: ${(error as Error).message}`);
  process.exit(1);
});
