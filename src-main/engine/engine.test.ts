import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { appModule } from '../app/app-module';
import type { EngineModule } from './engine-context';
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
