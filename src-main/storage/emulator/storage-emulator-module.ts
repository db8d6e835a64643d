import type { EngineModule } from '../../engine/engine-context';
import { parseStorageSection } from './emulator-config';
import { createStorageEmulator } from './storage-emulator';

/**
 * Runs the Kodo emulator inside the app on `storage.emulator.listen` unless
 * `storage.emulator.enabled: false`. State lives under the app's data_dir.
 */
export const storageEmulatorModule: EngineModule = {
  name: 'storage-emulator',
  async init(ctx) {
    const config = parseStorageSection(ctx.config.section('storage'));
    if (!config.enabled) {
      ctx.logger.info('storage emulator disabled by storage.emulator.enabled');
      return;
    }
    try {
      const emulator = await createStorageEmulator({
        listen: config.listen,
        dataDir: ctx.settings.dataDir,
        accounts: config.accounts,
        logger: ctx.logger,
        maxClockSkewSeconds: config.max_clock_skew_seconds,
        workflows: config.workflows,
        regionHosts: config.region_hosts,
        tls: config.tls,
      });
      ctx.addresses.publish('storage-emulator', emulator.url);
      ctx.onClose(() => emulator.close());
    } catch (error) {
      // A busy port must not keep the whole console from starting: say what to change instead.
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
      ctx.logger.error('storage emulator not started: its address is in use (change storage.emulator.listen or set enabled: false)', {
        listen: config.listen,
      });
    }
  },
};
