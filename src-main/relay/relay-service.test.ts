import { readFile } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { startRelay, type RelayUnderTest } from './test/relay-test-kit';

describe('relay contract service', () => {
  let relay: RelayUnderTest | undefined;
  afterEach(async () => relay?.stop());

  it('lists, adds, edits and deletes streams, refusing code-running sources', async () => {
    relay = await startRelay('  door: rtsp://admin:pw@10.0.0.9/s\n');
    const call = (method: string, input?: unknown) => relay!.running.engine.services.call('relay', method, input);
    expect(await call('listStreams')).toEqual({
      ok: true,
      value: [{ name: 'door', producers: [{ url: 'rtsp://***@10.0.0.9/s', state: 'idle', medias: [], bytesReceived: 0 }], consumers: [] }],
    });
    expect(await call('addStream', { name: 'yard', source: 'rtsp://127.0.0.1:1/y' })).toEqual({ ok: true });
    expect(await call('addStream', { name: 'yard', source: 'rtsp://127.0.0.1:1/y' })).toMatchObject({ ok: false, error: { code: 'conflict' } });
    expect(await call('addStream', { name: 'bad', source: 'exec:rm -rf /' })).toMatchObject({ ok: false, error: { code: 'invalid_input', message: expect.stringContaining('config file only') } });
    expect(await call('addStream', { name: 'has space', source: 'rtsp://x' })).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    expect(await call('editStream', { name: 'ghost', source: 'rtsp://x' })).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect(await call('editStream', { name: 'yard', source: 'rtsp://127.0.0.1:2/y' })).toEqual({ ok: true });
    expect(await readFile(relay.running.configPath, 'utf8')).toContain('yard: rtsp://127.0.0.1:2/y');
    expect(await call('deleteStream', { name: 'yard' })).toEqual({ ok: true });
    expect(await readFile(relay.running.configPath, 'utf8')).not.toContain('yard');
  });

  it('validates config text before it is written, with line numbers', async () => {
    relay = await startRelay();
    const call = (method: string, input?: unknown) => relay!.running.engine.services.call('relay', method, input);
    const bad = await call('validateConfig', { text: 'streams:\n  a: [\n' });
    expect(bad).toMatchObject({ ok: true, value: { problems: [{ line: expect.any(Number), message: expect.stringContaining('invalid YAML') }] } });
    const unknown = await call('validateConfig', { text: 'streams:\n  a: nope://x\n' });
    expect(unknown).toMatchObject({ ok: true, value: { problems: [{ message: expect.stringContaining('streams.a: streams: source not supported') }] } });
    expect(await call('validateConfig', { text: 'api:\n  listen: nowhere\n' })).toMatchObject({ ok: true, value: { problems: [{ message: expect.stringContaining('api.listen') }] } });
    expect(await call('validateConfig', { text: 'streams:\n  a: rtsp://x\n' })).toEqual({ ok: true, value: { problems: [] } });
    const before = await readFile(relay.running.configPath, 'utf8');
    expect(await call('writeConfig', { text: 'api: [' })).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    expect(await readFile(relay.running.configPath, 'utf8')).toBe(before);
  });
});
