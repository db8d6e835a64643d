import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import type { KodoCredentials } from './kodo-client';

// The client reads what it needs of the emulator's config section here, and the demo keys the
// emulator keeps in data_dir; it imports nothing of the emulator itself.
const emulatorSection = z
  .object({
    emulator: z
      .object({
        enabled: z.boolean().default(true),
        listen: z.string().default('127.0.0.1:1985'),
        accounts: z.array(z.object({ access_key: z.string(), secret_key: z.string() }).loose()).optional(),
      })
      .loose()
      .default({ enabled: true, listen: '127.0.0.1:1985' }),
  })
  .loose();

export interface LocalAccountSource {
  /** Where the embedded service answers (`127.0.0.1:1985`), or undefined when it is off. */
  host(): string | undefined;
  credentials(): Promise<KodoCredentials>;
}

/**
 * The embedded emulator as an account: its address as the emulator published it (the configured
 * one when it did not), its keys from the config or its demo keys file.
 */
export function localAccountSource(section: unknown, dataDir: string, boundUrl: () => string | undefined): LocalAccountSource {
  const { emulator } = emulatorSection.parse(section ?? {});
  // A wildcard listen address is reached on loopback from this machine.
  const configured = emulator.listen.replace(/^(0\.0\.0\.0|\[::\]|):/, '127.0.0.1:');
  return {
    host: () => {
      if (!emulator.enabled) return undefined;
      const bound = boundUrl();
      return bound ? new URL(bound).host : configured;
    },
    async credentials() {
      const configured = emulator.accounts?.[0];
      if (configured) return { accessKey: configured.access_key, secretKey: configured.secret_key };
      const keys = JSON.parse(await readFile(join(dataDir, 'storage', 'demo-account.json'), 'utf8')) as {
        access_key: string;
        secret_key: string;
      };
      return { accessKey: keys.access_key, secretKey: keys.secret_key };
    },
  };
}
