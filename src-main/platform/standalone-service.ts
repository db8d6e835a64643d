import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { readAppSettings, type AppSettings } from './config/app-settings';
import { openConfigStore, type ConfigStore } from './config/config-store';
import { createLogger, type Logger } from './logger';
import { installSignalStop } from './stop-on-signal';

export interface StandaloneService {
  /** The lines printed once it listens (where it is, where its data is). */
  banner: string[];
  close(): Promise<void>;
}

/**
 * `npm run <tool> -- --config <file>`: one embedded service (an emulator) on its own, from the
 * same config file as the app, until SIGINT or SIGTERM; exit 1 with the reason when it cannot start.
 */
export function runStandaloneService(
  tool: string,
  start: (config: ConfigStore, settings: AppSettings, logger: Logger) => Promise<StandaloneService>,
): void {
  const main = async (): Promise<void> => {
    const { values } = parseArgs({ options: { config: { type: 'string', short: 'c' } }, allowPositionals: false });
    if (!values.config) throw new Error(`usage: ${tool} --config <file.yaml>`);
    const path = resolve(values.config);
    if (!existsSync(path)) throw new Error(`config file ${path} does not exist`);
    const config = await openConfigStore({ path, createIfMissing: false });
    const settings = readAppSettings(config.effective(), path, { platform: process.platform, env: process.env, homedir: homedir() });
    const logger = createLogger({ level: settings.logLevel });
    const signals = installSignalStop({ exit: (code) => process.exit(code), note: (message, fields) => logger.info(message, fields) });
    const service = await start(config, settings, logger);
    for (const line of service.banner) console.log(line);
    signals.started(() => service.close());
  };
  main().catch((error: unknown) => {
    console.error(`${tool} could not start: ${(error as Error).message}`);
    process.exit(1);
  });
}
