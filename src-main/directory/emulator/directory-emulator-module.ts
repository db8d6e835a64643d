import type { EngineModule } from '../../engine/engine-context';
import { createDirectoryEmulator, type DirectoryEmulatorOptions } from './directory-emulator';
import type { DirectoryEmulatorConfig } from './emulator-config';
import { parseDirectorySection } from './emulator-config';
import type { Logger } from '../../platform/logger';

/** The emulator options a `directory.emulator` config section stands for. */
export function emulatorOptions(config: DirectoryEmulatorConfig, dataDir: string, logger: Logger): DirectoryEmulatorOptions {
  return {
    listen: config.listen,
    dataDir,
    tenant: config.tenant,
    domains: config.domains,
    apps: config.apps,
    users: config.users,
    faults: config.faults,
    logger,
    tokenLifetimeSeconds: config.token_lifetime_seconds,
    changeLogLimit: config.change_log_limit,
    demoData: config.demo_data,
    tls: config.tls,
  };
}

/**
 * Runs the Graph emulator inside the app on `directory.emulator.listen` unless
 * `directory.emulator.enabled: false`. State lives under the app's data_dir.
 */
export const directoryEmulatorModule: EngineModule = {
  name: 'directory-emulator',
  async init(ctx) {
    const config = parseDirectorySection(ctx.config.section('directory'));
    if (!config.enabled) {
      ctx.logger.info('directory emulator disabled by directory.emulator.enabled');
      return;
    }
    try {
      const emulator = await createDirectoryEmulator(emulatorOptions(config, ctx.settings.dataDir, ctx.logger));
      // The directory client reaches it at the port it really got (listen may name port 0).
      ctx.addresses.publish('directory-emulator', emulator.url);
      ctx.onClose(() => emulator.close());
    } catch (error) {
      // A busy port must not keep the whole console from starting: say what to change instead.
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
      ctx.logger.error('directory emulator not started: its address is in use (change directory.emulator.listen or set enabled: false)', {
        listen: config.listen,
      });
    }
  },
};
