import { appModule } from '../app/app-module';
import { createConsoleModule, type ConsoleModuleOptions } from '../console/console-module';
import { relayModule } from '../relay/relay-module';
import { storageEmulatorModule } from '../storage/emulator/storage-emulator-module';
import { directoryEmulatorModule } from '../directory/emulator/directory-emulator-module';
import { createDirectoryModule, type DirectoryModuleOptions } from '../directory/directory-module';
import type { EngineModule } from './engine-context';

/**
 * The engine's features, started in this order and stopped in reverse. A feature joins the
 * app with one line here.
 */
export function engineModules(console: ConsoleModuleOptions, desktop: DirectoryModuleOptions = {}): EngineModule[] {
  return [
    appModule,
    relayModule,
    storageEmulatorModule,
    directoryEmulatorModule,
    createDirectoryModule(desktop),
    createConsoleModule(console),
  ];
}
