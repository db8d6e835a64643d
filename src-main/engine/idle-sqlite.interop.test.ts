import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

// The headless app as `npm run serve` starts it, with the emulators off and a fresh data_dir:
// none of its SQLite stores (the folder index, the transfer queue, the calendar copy) is used,
// so none is opened, and SQLite itself (better-sqlite3's native addon, which the first database
// opened loads) is not in the process. The same app with the storage emulator on (which keeps its
// metadata in SQLite from the start) shows that the check sees a loaded driver.

const VITE_NODE = resolve('node_modules/vite-node/vite-node.mjs');
const children: ChildProcess[] = [];
const dirs: string[] = [];

afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

/** Starts the headless app on a fresh data_dir and resolves once it serves. */
async function startHeadless(storageEmulator: boolean): Promise<{ child: ChildProcess; dataDir: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'idle-sqlite-'));
  dirs.push(dir);
  const config = join(dir, 'relay-console.yaml');
  await writeFile(
    config,
    [
      'data_dir: ./data',
      'api:\n  listen: 127.0.0.1:0',
      'rtsp:\n  listen: 127.0.0.1:0',
      'webrtc:\n  listen: 127.0.0.1:0',
      'log:\n  level: warn',
      `storage:\n  emulator:\n    enabled: ${storageEmulator}\n    listen: 127.0.0.1:0`,
      'directory:\n  emulator:\n    enabled: false',
      '',
    ].join('\n'),
  );
  const child = spawn(process.execPath, [VITE_NODE, resolve('src-main/main.headless.ts'), '--', '--config', config], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  await new Promise<void>((resolveStarted, reject) => {
    const seen = (data: Buffer) => {
      output += data.toString();
      if (/\(headless\) at http/.test(output)) resolveStarted();
    };
    child.stdout!.on('data', seen);
    child.stderr!.on('data', seen);
    child.once('exit', (code, signal) => reject(new Error(`the app exited (${code ?? signal}) before it served: ${output.slice(-2000)}`)));
  });
  return { child, dataDir: join(dir, 'data') };
}

/** Whether the process has SQLite's driver (better-sqlite3's native addon, SQLite built in) mapped. */
const sqliteLoaded = (pid: number) => /\/better-sqlite3\/\S*\.node$/m.test(readFileSync(`/proc/${pid}/maps`, 'utf8'));

async function sqliteFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true });
  return entries.filter((name) => /\.sqlite(-wal|-shm)?$/.test(name)).sort();
}

describe.skipIf(process.platform !== 'linux')('the headless app with nothing stored', () => {
  it('opens no SQLite file and does not load SQLite at start', async () => {
    const [idle, emulating] = await Promise.all([startHeadless(false), startHeadless(true)]);
    expect(await sqliteFiles(idle.dataDir)).toEqual([]);
    expect(sqliteLoaded(idle.child.pid!)).toBe(false);
    // The check itself: the storage emulator opens its metadata at start, and loads the driver.
    expect(await sqliteFiles(emulating.dataDir)).not.toEqual([]);
    expect(sqliteLoaded(emulating.child.pid!)).toBe(true);
    // Beside it (`storage/metadata.sqlite`), the storage client's own files are still not made.
    expect(
      (await sqliteFiles(emulating.dataDir)).filter((name) => name.startsWith('storage/index') || name.startsWith('storage/transfers/')),
    ).toEqual([]);
    for (const { child } of [idle, emulating]) {
      const exited = new Promise((resolveExit) => child.once('exit', resolveExit));
      child.kill('SIGTERM');
      await exited;
    }
  }, 60_000);
});
