import { runStandaloneService } from '../../platform/standalone-service';
import { createDirectoryEmulator } from './directory-emulator';
import { emulatorOptions } from './directory-emulator-module';
import { parseDirectorySection } from './emulator-config';

/** `npm run directory-emulator -- --config <file>`: the Graph emulator alone. */
runStandaloneService('directory-emulator', async (config, settings, logger) => {
  const emulator = await createDirectoryEmulator(emulatorOptions(parseDirectorySection(config.section('directory')), settings.dataDir, logger));
  return {
    banner: [`Graph directory emulator at ${emulator.url} (Graph: ${emulator.url}/v1.0, tokens: ${emulator.url}/${emulator.tenant}/oauth2/v2.0/token)`, `Data: ${settings.dataDir}/directory`],
    close: () => emulator.close(),
  };
});
