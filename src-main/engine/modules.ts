import { z } from 'zod';
import { appModule } from '../app/app-module';
import { appSettingsSchema } from '../platform/config/app-settings';
import { createConsoleModule, type ConsoleModuleOptions } from '../console/console-module';
import { relayConfigSchema, relayModule } from '../relay/relay-module';
import { createStorageClientModule } from '../storage/client/storage-client-module';
import { storageEmulatorModule } from '../storage/emulator/storage-emulator-module';
import { storageSectionSchema } from '../storage/emulator/emulator-config';
import { directoryEmulatorModule } from '../directory/emulator/directory-emulator-module';
import { directorySectionSchema as directoryEmulatorSectionSchema } from '../directory/emulator/emulator-config';
import { createDirectoryModule, type DirectoryModuleOptions } from '../directory/directory-module';
import { directorySectionSchema as directoryClientSectionSchema } from '../directory/directory-connection';
import { createPreferencesModule, type CameraWindowHost } from '../preferences/preferences-module';
import { recordingsConfigSchema, recordingsModule } from '../recordings/recordings-module';
import { createRelaysModule } from '../relays/relays-module';
import { relaysConfigSchema } from '../relays/relays-config';
import type { EngineModule } from './engine-context';

/** What only the desktop runtime gives the engine: the OS browser and keychain, camera windows. */
export interface DesktopOptions extends DirectoryModuleOptions {
  windows?: CameraWindowHost;
}

/**
 * The engine's features, started in this order and stopped in reverse. A feature joins the
 * app with one line here. The console page comes first so a browser gets it while the emulators
 * still start (its socket waits for them, see console-module.ts).
 */
export function engineModules(console: ConsoleModuleOptions, desktop: DesktopOptions = {}): EngineModule[] {
  return [
    createConsoleModule(console),
    appModule,
    createPreferencesModule({ windows: desktop.windows }),
    relayModule,
    storageEmulatorModule,
    createStorageClientModule({ safeStorage: desktop.safeStorage }),
    directoryEmulatorModule,
    createDirectoryModule(desktop),
    createRelaysModule({ safeStorage: desktop.safeStorage }),
    recordingsModule,
  ];
}

/**
 * The schemas the engine and its modules read the config with, each taken from the file that
 * reads it, so the keys the engine warns about as unknown are exactly the keys nothing reads.
 */
export const configSchemas: readonly z.core.$ZodType[] = [
  appSettingsSchema,
  relayConfigSchema,
  z.object({ storage: storageSectionSchema }),
  z.object({ directory: directoryClientSectionSchema }),
  z.object({ directory: directoryEmulatorSectionSchema }),
  recordingsConfigSchema,
  relaysConfigSchema,
];
