// What the SDK suite runners share: a free port for the emulator, and the emulator itself
// started from dist/ with a config file, ready once it says where it listens.
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

export const freePort = () =>
  new Promise((done) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => done(port));
    });
  });

/** The storage emulator from dist/ on `configPath`; resolves with its process once it listens. */
export async function startStorageEmulator(configPath) {
  const emulator = spawn(process.execPath, [join(root, 'dist', 'main', 'storage-emulator.js'), '--config', configPath], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise((ready, fail) => {
    emulator.stdout.on('data', (chunk) => chunk.toString().includes('Kodo storage emulator at') && ready());
    emulator.on('exit', (code) => fail(new Error(`the emulator exited (${code})`)));
  });
  return emulator;
}
