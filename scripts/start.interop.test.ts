import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readFile, rm, symlink } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildAll } from './build.mjs';
import { listen } from '../src-main/platform/listen';
import { nodeVersionProblem } from '../src-main/platform/node-version.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const electronInstalled = existsSync(join(root, 'node_modules', 'electron', 'path.txt'));

describe('npm start without the Electron binary', () => {
  it.skipIf(electronInstalled)(
    'says so in one line, serves the console headless, and stops cleanly on SIGTERM',
    async () => {
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
    },
    90_000,
  );
});

describe('first run on the command line', () => {
  const headless = join(root, 'dist', 'main', 'headless.js');
  const run = (script: string, args: string[]) => {
    const result = spawnSync(process.execPath, [script, ...args], { cwd: root, encoding: 'utf8', timeout: 30_000 });
    return { code: result.status, out: result.stdout, err: result.stderr };
  };
  beforeAll(() => buildAll({ quiet: true }), 120_000);

  it('--help and -h print the options and exit 0, through npm start without building anything', async () => {
    // npm start's own files, copied where no dist/ exists: the help must come before any build.
    const copy = await mkdtemp(join(tmpdir(), 'rc-help-'));
    try {
      for (const file of [
        'scripts/start.mjs',
        'scripts/build.mjs',
        'scripts/build-native.mjs',
        'scripts/engine-flags.mjs',
        'src-main/cli-options.mjs',
        'src-main/platform/nearest-name.mjs',
        'src-main/platform/node-version.mjs',
      ]) {
        await mkdir(dirname(join(copy, file)), { recursive: true });
        await copyFile(join(root, file), join(copy, file));
      }
      await symlink(join(root, 'node_modules'), join(copy, 'node_modules'), 'dir');
      for (const flag of ['--help', '-h']) {
        const started = run(join(copy, 'scripts', 'start.mjs'), [flag]);
        expect(started.code).toBe(0);
        expect(started.out).toContain('-c, --config <file>');
        expect(started.out).toContain('--listen <host:port>');
        expect(started.out).toContain('-h, --help');
      }
      expect(existsSync(join(copy, 'dist'))).toBe(false);
    } finally {
      await rm(copy, { recursive: true, force: true });
    }
    const direct = run(headless, ['--help']);
    expect(direct.code).toBe(0);
    expect(direct.out).toContain('--config <file>');
  });

  it('an older Node is refused in one sentence that names the version and how to get it', () => {
    // This Node, made to say it is 20 before the script runs.
    const olderNode = ['--import', 'data:text/javascript,Object.defineProperty(process.versions, "node", { value: "20.20.2" })'];
    for (const script of [join(root, 'scripts', 'start.mjs'), headless]) {
      const result = spawnSync(process.execPath, [...olderNode, script], { cwd: root, encoding: 'utf8', timeout: 30_000 });
      expect(result.status).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toBe(`${nodeVersionProblem('20.20.2')}\n`);
    }
    expect(nodeVersionProblem('20.20.2')).toMatch(/^Relay Console needs Node 24 or later .*scripts\/use-node\.sh/);
  });

  it('an unknown flag lists the valid ones, before anything is built', () => {
    for (const script of [join(root, 'scripts', 'start.mjs'), headless]) {
      const result = run(script, ['--lisen', '127.0.0.1:0']);
      expect(result.code).toBe(2);
      expect(result.err.trim()).toBe(
        'Relay Console: unknown option --lisen (did you mean --listen?); valid options: --config <file>, --listen <host:port>, --headless, --help',
      );
    }
  });

  it('a wrong --listen gets a sentence, not a Node error', () => {
    expect(run(headless, ['--listen', 'nonsense'])).toMatchObject({
      code: 2,
      err: 'Relay Console: --listen nonsense: expected host:port, e.g. 127.0.0.1:1984 or :1984\n',
    });
    expect(run(headless, ['--listen', '127.0.0.1:abc'])).toMatchObject({
      code: 2,
      err: 'Relay Console: --listen 127.0.0.1:abc: the port must be a number, e.g. 127.0.0.1:1984 (got "abc")\n',
    });
  });

  it('a busy API port names the flag that changes it', async () => {
    const taken = createServer();
    const port = await listen(taken, 0, '127.0.0.1');
    const dir = await mkdtemp(join(tmpdir(), 'rc-busy-'));
    try {
      const result = spawn(process.execPath, [headless, '--config', join(dir, 'c.yaml'), '--listen', `127.0.0.1:${port}`], { cwd: root });
      let err = '';
      result.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
      const code = await new Promise<number | null>((resolve) => result.once('exit', resolve));
      expect(code).toBe(1);
      expect(err).toContain(
        `Relay Console could not start: 127.0.0.1:${port} is already in use by another program (another Relay Console or go2rtc?); start with another --listen host:port`,
      );
    } finally {
      taken.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
