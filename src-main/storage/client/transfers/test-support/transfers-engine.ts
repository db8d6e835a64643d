import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { TransferStatus } from '@shared/contract/transfers';
import { startEngine } from '@main/engine/engine';
import { configSchemas } from '@main/engine/modules';
import { createStorageClientModule } from '../../storage-client-module';

/**
 * The storage client alone in a process a test can kill -9 (its `local` account is the emulator
 * at `storage.emulator.listen`, run apart by the test, so the bucket outlives this process).
 * `vite-node transfers-engine.ts -- <config> [<folder>]`: with a folder, its files are added to
 * the transfer queue as uploads to bucket `pub` (by path, as the desktop app adds them), 8 at
 * once. Prints `done <key> <etag>` as each upload finishes, and `listening <url>` once it serves.
 */
const [configPath, folder] = process.argv.slice(2).filter((arg) => arg !== '--');
const engine = await startEngine({
  runtime: 'electron',
  version: 'test',
  modules: [createStorageClientModule()],
  configPath: configPath!,
  configSchemas,
  logSink: { write: (line) => process.stderr.write(`${line}\n`) },
});
engine.services.subscribe('transfers', 'onTransfers', (changed) => {
  for (const t of changed as TransferStatus[])
    if (t.state === 'done' || t.state === 'failed') process.stdout.write(`${t.state} ${t.key} ${t.etag ?? t.error}\n`);
});
if (folder) {
  await engine.services.call('transfers', 'setConcurrency', { concurrency: 8 });
  const files = readdirSync(folder, { withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => ({ relativePath: entry.name, size: statSync(join(folder, entry.name)).size, path: join(folder, entry.name) }));
  const added = (await engine.services.call('transfers', 'addUploads', { accountId: 'local', bucket: 'pub', prefix: '', files })) as {
    ok: boolean;
  };
  if (!added.ok) throw new Error(`addUploads: ${JSON.stringify(added)}`);
}
process.stdout.write(`listening ${engine.url}\n`);
process.on('SIGTERM', () => void engine.close().then(() => process.exit(0)));
