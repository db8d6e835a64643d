import { startEngine } from '../../engine/engine';
import { scheduleStartupRelease } from '../../platform/startup-memory';
import { configSchemas } from '../../engine/modules';
import { relayModule } from '../../relay/relay-module';
import { createStorageClientModule } from '../../storage/client/storage-client-module';
import { recordingsModule } from '../recordings-module';

/**
 * An engine that records, alone in a process a test can kill -9: the relay, the storage client
 * (its `local` account is the emulator at `storage.emulator.listen`, run apart by the test so
 * the bucket can go away) and recordings. `vite-node recording-engine.ts -- <config>`; prints
 * `listening <url>` once it serves.
 */
const configPath = process.argv.at(-1)!;
const engine = await startEngine({
  runtime: 'headless',
  version: 'test',
  modules: [relayModule, createStorageClientModule(), recordingsModule],
  configPath,
  configSchemas,
  logSink: { write: (line) => process.stderr.write(`${line}\n`) },
});
// As the app's engine does after its start (engine/lifecycle.ts).
scheduleStartupRelease();
process.stdout.write(`listening ${engine.url}\n`);
process.on('SIGTERM', () => void engine.close().then(() => process.exit(0)));
