import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const electronInstalled = existsSync(join(root, 'node_modules', 'electron', 'path.txt'));

describe('npm start without the Electron binary', () => {
  it.skipIf(electronInstalled)('says so in one line, serves the console headless, and stops cleanly on SIGTERM', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'rc-start-'));
    const configPath = join(dir, 'first-run.yaml');
    try {
      const child = spawn(process.execPath, [join(root, 'scripts', 'start.mjs'), '--config', configPath, '--listen', '127.0.0.1:0'], {
        cwd: root,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      const url = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no URL printed:\n${output}`)), 60_000);
        const read = (chunk: Buffer) => {
          output += chunk.toString();
          const match = /Relay Console \(headless\) at (http:\/\/\S+)\//.exec(output);
          if (match?.[1]) {
            clearTimeout(timer);
            resolve(match[1]);
          }
        };
        child.stdout.on('data', read);
        child.stderr.on('data', read);
      });
      expect(output.split('\n').filter((l) => l.includes('Electron binary not installed'))).toHaveLength(1);
      const page = await fetch(`${url}/`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<div id="root">');
      expect(await readFile(configPath, 'utf8')).toContain('# Relay Console configuration.');
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 90_000);
});
