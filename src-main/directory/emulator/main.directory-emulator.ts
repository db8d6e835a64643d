import { runStandaloneService } from '../../platform/standalone-service';
import { createDirectoryEmulator } from './directory-emulator';
import { emulatorOptions } from './directory-emulator-module';
import { parseDirectorySection } from './emulator-config';
import { DIRECTORY_EMULATOR_USAGE, wantsHelp } from './emulator-usage';

/** `npm run directory-emulator -- --config <file>`: the Graph emulator alone (`--help` lists the options). */
if (wantsHelp(process.argv.slice(2))) {
  console.log(DIRECTORY_EMULATOR_USAGE);
} else {
  runStandaloneService('directory-emulator', async (config, settings, logger) => {
    const emulator = await createDirectoryEmulator(
      emulatorOptions(parseDirectorySection(config.section('directory')), settings.dataDir, logger),
    );
    return {
      banner: [
        `Graph directory emulator at ${emulator.url} (Graph: ${emulator.url}/v1.0, tokens: ${emulator.url}/${emulator.tenant}/oauth2/v2.0/token)`,
        `Data: ${settings.dataDir}/directory`,
      ],
      close: () => emulator.close(),
    };
  });
}
