import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { STORAGE_EMULATOR_USAGE, wantsHelp } from './emulator-usage';

describe('storage emulator command line', () => {
  it('--help prints the options and exits 0 without starting anything', () => {
    const entry = resolve(__dirname, 'main.storage-emulator.ts');
    const run = spawnSync(process.execPath, [resolve('node_modules/vite-node/vite-node.mjs'), entry, '--', '--help'], {
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toBe(STORAGE_EMULATOR_USAGE);
    expect(run.stdout).toContain('-c, --config <file>');
    expect(run.stdout).toContain('-h, --help');
  }, 40_000);

  it('knows help when it is an option of its own', () => {
    expect(wantsHelp(['--help'])).toBe(true);
    expect(wantsHelp(['-h'])).toBe(true);
    expect(wantsHelp(['--config', 'a.yaml', '--help'])).toBe(true);
    expect(wantsHelp(['--config', 'a.yaml'])).toBe(false);
    // A config file named --help, or --help after the end of the options, is not a request for help.
    expect(wantsHelp(['--config', '--help'])).toBe(false);
    expect(wantsHelp(['-c', '-h'])).toBe(false);
    expect(wantsHelp(['--', '--help'])).toBe(false);
  });
});
