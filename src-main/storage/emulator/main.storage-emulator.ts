import { runStandaloneService } from '../../platform/standalone-service';
import { parseStorageSection } from './emulator-config';
import { STORAGE_EMULATOR_USAGE, wantsHelp } from './emulator-usage';
import { createStorageEmulator } from './storage-emulator';

/** `npm run storage-emulator -- --config <file>`: the Kodo emulator alone; `--help` lists the options. */
if (wantsHelp(process.argv.slice(2))) {
  process.stdout.write(STORAGE_EMULATOR_USAGE);
} else {
  runStandaloneService('storage-emulator', async (config, settings, logger) => {
    const emulatorConfig = parseStorageSection(config.section('storage'));
    const emulator = await createStorageEmulator({
      listen: emulatorConfig.listen,
      dataDir: settings.dataDir,
      accounts: emulatorConfig.accounts,
      logger,
      maxClockSkewSeconds: emulatorConfig.max_clock_skew_seconds,
      workflows: emulatorConfig.workflows,
      regionHosts: emulatorConfig.region_hosts,
      tls: emulatorConfig.tls,
    });
    return { banner: [`Kodo storage emulator at ${emulator.url}`, `Data: ${settings.dataDir}/storage`], close: () => emulator.close() };
  });
}
