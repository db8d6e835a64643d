import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appModule } from '../app/app-module';
import { listen } from '../platform/listen';
import type { EngineModule } from './engine-context';
import { startEngine, type EngineOptions } from './engine';
import { configSchemas } from './modules';
import { startTestEngine } from './test-engine';

const portIsFree = (port: number) =>
  new Promise<boolean>((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });

describe('engine', () => {
  it('starts modules in order, closes them in reverse and frees its port', async () => {
    const order: string[] = [];
    const tracked = (name: string): EngineModule => ({
      name,
      init: (ctx) => {
        order.push(`start ${name}`);
        ctx.onClose(() => void order.push(`stop ${name}`));
      },
    });
    const running = await startTestEngine({ modules: [appModule, tracked('a'), tracked('b')] });
    const port = running.engine.server.port;
    expect(await portIsFree(port)).toBe(false);
    const info = await running.engine.services.call('app', 'info', undefined);
    expect(info).toMatchObject({ ok: true, value: { runtime: 'headless', version: 'test', configPath: running.configPath } });
    await running.stop();
    await running.engine.close(); // twice is harmless
    expect(order).toEqual(['start a', 'start b', 'stop b', 'stop a']);
    expect(await portIsFree(port)).toBe(true);
  });

  it('undoes what started when a module fails to start', async () => {
    const stopped: string[] = [];
    const failing: EngineModule = {
      name: 'broken',
      init: () => {
        throw new Error('cannot start broken');
      },
    };
    const fine: EngineModule = { name: 'fine', init: (ctx) => ctx.onClose(() => void stopped.push('fine')) };
    await expect(startTestEngine({ modules: [fine, failing] })).rejects.toThrow('cannot start broken');
    expect(stopped).toEqual(['fine']);
  });

  it('refuses a config whose settings are wrong, naming the key', async () => {
    await expect(startTestEngine({ modules: [], config: 'api:\n  listen: nowhere\n' })).rejects.toThrow(/api\.listen/);
    await expect(startTestEngine({ modules: [], config: 'api: [\n' })).rejects.toThrow(/invalid YAML.*line/);
  });
});

describe('engine first run', () => {
  const withConfig = async (text: string, run: (dir: string, configPath: string) => Promise<void>) => {
    const dir = await mkdtemp(join(tmpdir(), 'rc-engine-'));
    const configPath = join(dir, 'relay.yaml');
    await writeFile(configPath, text);
    try {
      await run(dir, configPath);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  };
  const start = (configPath: string, lines: string[], extra: Partial<EngineOptions> = {}) =>
    startEngine({
      runtime: 'headless',
      version: 'test',
      modules: [],
      configPath,
      env: {},
      listen: { host: '127.0.0.1', port: 0 },
      logSink: { write: (l) => lines.push(l) },
      ...extra,
    });

  it('removes config temp files a killed write left behind, and nothing else', async () => {
    await withConfig('api:\n  password: hunter2\n', async (dir, configPath) => {
      await writeFile(join(dir, '.relay.yaml.0123456789ab.tmp'), 'api:\n  password: hunter2\n');
      await writeFile(join(dir, '.other.yaml.0123456789ab.tmp'), 'not ours');
      const engine = await start(configPath, []);
      await engine.close();
      expect((await readdir(dir)).sort()).toEqual(['.other.yaml.0123456789ab.tmp', 'relay.yaml']);
    });
  });

  it('names the config file in a YAML error', async () => {
    await withConfig('api: [\n', async (_dir, configPath) => {
      await expect(start(configPath, [])).rejects.toThrow(`config ${configPath}: invalid YAML`);
    });
  });

  it('warns about unknown top-level and section keys with the key they probably meant', async () => {
    await withConfig(
      'straems:\n  cam: rtsp://x\napi:\n  lisen: 1\nwebrtc:\n  listen: ":8555"\nrtsp:\n  listen: ""\n',
      async (_dir, configPath) => {
        const lines: string[] = [];
        const engine = await start(configPath, lines, { configSchemas });
        await engine.close();
        const warnings = lines.filter((l) => l.includes('unknown key'));
        expect(warnings).toHaveLength(2);
        expect(warnings[0]).toContain(`config ${configPath}: unknown key straems (did you mean streams?)`);
        expect(warnings[1]).toContain('unknown key api.lisen (did you mean api.listen?)');
      },
    );
  });

  it('finds no unknown key in the config it writes on first run', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'rc-engine-'));
    try {
      const lines: string[] = [];
      await (await start(join(dir, 'fresh.yaml'), lines, { configSchemas })).close();
      expect(lines.join('\n')).not.toContain('unknown key');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('says which setting or flag frees a busy API port', async () => {
    const taken = createServer();
    const port = await listen(taken, 0, '127.0.0.1');
    try {
      await withConfig(`api:\n  listen: 127.0.0.1:${port}\n`, async (_dir, configPath) => {
        await expect(start(configPath, [], { listen: undefined })).rejects.toThrow(
          `127.0.0.1:${port} is already in use by another program (another Relay Console or go2rtc?); change api.listen in ${configPath}, or start with --listen host:port`,
        );
        await expect(start(configPath, [], { listen: { host: '127.0.0.1', port } })).rejects.toThrow(
          /in use.*start with another --listen host:port/,
        );
      });
    } finally {
      taken.close();
    }
  });

  it('warns when the API is open to the network without a username and password', async () => {
    // An IPv4-mapped loopback address: not a loopback name to the guard, yet nothing leaves the machine.
    const openHost = { host: '::ffff:127.0.0.1', port: 0 };
    await withConfig('log:\n  level: info\n', async (_dir, configPath) => {
      const lines: string[] = [];
      await (await start(configPath, lines, { listen: openHost })).close();
      expect(lines.filter((l) => l.includes('open to the network without a username and password'))).toHaveLength(1);
      const quiet: string[] = [];
      await (await start(configPath, quiet)).close();
      expect(quiet.join('\n')).not.toContain('open to the network');
    });
    await withConfig('api:\n  username: admin\n  password: secret\n', async (_dir, configPath) => {
      const lines: string[] = [];
      await (await start(configPath, lines, { listen: openHost })).close();
      expect(lines.join('\n')).not.toContain('open to the network');
    });
  });
});
