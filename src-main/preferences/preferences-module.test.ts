import { readFile, writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { WindowBounds } from '../../src-shared/contract/preferences';
import { remoteStreamSource } from '../../src-shared/contract/relays';
import { startTestEngine, type TestEngine } from '../engine/test-engine';
import { createPreferencesModule, type CameraWindowHost } from './preferences-module';
import { PREFERENCES_FILE } from './preferences-store';

describe('preferences service', () => {
  let running: TestEngine | undefined;
  afterEach(async () => running?.stop());

  const call = (method: string, input?: unknown) => running!.engine.services.call('preferences', method, input);

  it('keeps the live layout and order in data_dir and reads them back after a restart', async () => {
    running = await startTestEngine({ modules: [createPreferencesModule()] });
    expect(await call('get')).toEqual({
      ok: true,
      value: {
        appearance: { colorScheme: 'system' },
        live: { layout: 'auto', order: [], modes: {} },
        popouts: [],
        directory: { assignmentColumns: ['target', 'accessPackage', 'assignmentPolicy', 'state', 'schedule'] },
      },
    });
    const events: unknown[] = [];
    running.engine.services.subscribe('preferences', 'onPreferences', (p) => events.push(p));
    expect(await call('setLiveView', { layout: '3x3', order: ['yard', 'door'] })).toMatchObject({
      ok: true,
      value: { live: { layout: '3x3', order: ['yard', 'door'] } },
    });
    expect(events).toMatchObject([{ live: { layout: '3x3', order: ['yard', 'door'] }, popouts: [] }]);
    const file = JSON.parse(await readFile(join(running.dir, 'data', PREFERENCES_FILE), 'utf8'));
    expect(file.live).toEqual({ layout: '3x3', order: ['yard', 'door'], modes: {} });
    expect(await call('setLiveView', { layout: '5x5', order: [] })).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    expect(await call('setDirectoryView', { assignmentColumns: ['state', 'target'] })).toMatchObject({
      ok: true,
      value: { directory: { assignmentColumns: ['state', 'target'] } },
    });
    expect(await call('setDirectoryView', { assignmentColumns: [] })).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    expect(await call('setAppearance', { colorScheme: 'dark' })).toMatchObject({
      ok: true,
      value: { appearance: { colorScheme: 'dark' }, live: { layout: '3x3' } },
    });
    expect(events.at(-1)).toMatchObject({ appearance: { colorScheme: 'dark' } });
    expect(await call('setAppearance', { colorScheme: 'sepia' })).toMatchObject({ ok: false, error: { code: 'invalid_input' } });

    // A forced mode per stream; the grid's changes leave them alone; null is automatic again.
    expect(await call('setTileMode', { stream: 'yard', mode: 'mjpeg' })).toMatchObject({
      ok: true,
      value: { live: { modes: { yard: 'mjpeg' } } },
    });
    expect(await call('setTileMode', { stream: 'door', mode: 'hls' })).toMatchObject({
      ok: true,
      value: { live: { modes: { yard: 'mjpeg', door: 'hls' } } },
    });
    expect(await call('setLiveView', { layout: '3x3', order: ['yard', 'door'] })).toMatchObject({
      ok: true,
      value: { live: { modes: { yard: 'mjpeg', door: 'hls' } } },
    });
    expect(await call('setTileMode', { stream: 'door', mode: null })).toMatchObject({
      ok: true,
      value: { live: { modes: { yard: 'mjpeg' } } },
    });
    expect(await call('setTileMode', { stream: 'door', mode: 'flash' })).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    expect(JSON.parse(await readFile(join(running.dir, 'data', PREFERENCES_FILE), 'utf8')).live.modes).toEqual({ yard: 'mjpeg' });

    await running.engine.close();
    const reopened = await startEngineOn(running.dir);
    expect(await reopened.services.call('preferences', 'get', undefined)).toMatchObject({
      ok: true,
      value: { appearance: { colorScheme: 'dark' }, live: { layout: '3x3', order: ['yard', 'door'], modes: { yard: 'mjpeg' } } },
    });
    await reopened.close();
  });

  it('saves a remote tile under its longest relay:// id in the order and as a forced mode, and reads it back after a restart', async () => {
    running = await startTestEngine({ modules: [createPreferencesModule()] });
    const remote = remoteStreamSource('n'.repeat(64), '界'.repeat(128));
    expect(await call('setLiveView', { layout: 'auto', order: [remote, 'yard'] })).toMatchObject({ ok: true });
    expect(await call('setTileMode', { stream: remote, mode: 'mse' })).toMatchObject({ ok: true });
    expect(await call('setTileMode', { stream: `${remote}x`, mode: 'mse' })).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    await running.engine.close();
    const reopened = await startEngineOn(running.dir);
    expect(await reopened.services.call('preferences', 'get', undefined)).toMatchObject({
      ok: true,
      value: { live: { order: [remote, 'yard'], modes: { [remote]: 'mse' } } },
    });
    await reopened.close();
  });

  it('sets a damaged preferences file aside and starts with the defaults', async () => {
    running = await startTestEngine({ modules: [] });
    await mkdir(join(running.dir, 'data'), { recursive: true });
    await writeFile(join(running.dir, 'data', PREFERENCES_FILE), '{"live": {"layout": "9x9"');
    const engine = await startEngineOn(running.dir);
    expect(await engine.services.call('preferences', 'get', undefined)).toMatchObject({ ok: true, value: { live: { layout: 'auto' } } });
    await engine.close();
  });

  it('opens desktop pop-outs, remembers their bounds, forgets them when closed, and restores them', async () => {
    const opened: Array<{ stream: string; bounds?: WindowBounds; events: Parameters<CameraWindowHost['openCamera']>[2] }> = [];
    const restored: string[] = [];
    const windows: CameraWindowHost = {
      openCamera: (stream, bounds, events) => opened.push({ stream, bounds, events }),
      restore: (popouts, open) => popouts.forEach((p) => (restored.push(p.stream), open(p))),
    };
    running = await startTestEngine({ modules: [createPreferencesModule({ windows })] });
    expect(await call('openPopout', { stream: 'door' })).toEqual({ ok: true, value: { opened: true } });
    expect(opened.map((o) => o.stream)).toEqual(['door']);
    opened[0]!.events.onBounds({ x: 10, y: 20, width: 640, height: 360 });
    await expect
      .poll(async () => (await call('get')) as unknown)
      .toMatchObject({ value: { popouts: [{ stream: 'door', bounds: { x: 10, y: 20, width: 640, height: 360 } }] } });

    const engine = await startEngineOn(running.dir, windows);
    expect(restored).toEqual(['door']);
    expect(opened.at(-1)).toMatchObject({ stream: 'door', bounds: { x: 10, y: 20, width: 640, height: 360 } });
    opened.at(-1)!.events.onClosed();
    await expect
      .poll(async () => (await engine.services.call('preferences', 'get', undefined)) as unknown)
      .toMatchObject({ value: { popouts: [] } });
    await engine.close();
  });

  // A second engine on an existing test folder (its config and data_dir).
  async function startEngineOn(dir: string, windows?: CameraWindowHost) {
    const { startEngine } = await import('../engine/engine');
    return startEngine({
      runtime: 'headless',
      version: 'test',
      modules: [createPreferencesModule({ windows })],
      configPath: join(dir, 'relay-console.yaml'),
      env: {},
      listen: { host: '127.0.0.1', port: 0 },
      logSink: { write: () => undefined },
    });
  }
});
