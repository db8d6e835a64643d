import { readFile, writeFile } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { CODE_RUNNING_SCHEMES, SOURCE_HINTS } from '../../src-shared/relay/source-schemes';
import { rtspEndpoint } from './relay-service';
import { startRelay, type RelayUnderTest } from './test/relay-test-kit';
import { quietFor, within } from '../test-support/time';

describe('relay contract service', () => {
  let relay: RelayUnderTest | undefined;
  afterEach(async () => relay?.stop());

  it('lists, adds, edits and deletes streams, refusing code-running sources', async () => {
    relay = await startRelay('  door: rtsp://admin:pw@10.0.0.9/s\n');
    const call = (method: string, input?: unknown) => relay!.running.engine.services.call('relay', method, input);
    expect(await call('listStreams')).toEqual({
      ok: true,
      value: [
        {
          name: 'door',
          sources: ['rtsp://***@10.0.0.9/s'],
          producers: [{ url: 'rtsp://***@10.0.0.9/s', state: 'idle', medias: [], codecs: [], bytesReceived: 0 }],
          consumers: [],
        },
      ],
    });
    expect(await call('addStream', { name: 'yard', sources: ['rtsp://127.0.0.1:1/y'] })).toEqual({ ok: true });
    expect(await call('addStream', { name: 'yard', sources: ['rtsp://127.0.0.1:1/y'] })).toMatchObject({
      ok: false,
      error: { code: 'conflict' },
    });
    expect(await call('addStream', { name: 'bad', sources: ['exec:rm -rf /'] })).toMatchObject({
      ok: false,
      error: { code: 'invalid_input', message: expect.stringContaining('config file only') },
    });
    expect(await call('addStream', { name: 'has space', sources: ['rtsp://x'] })).toMatchObject({
      ok: false,
      error: { code: 'invalid_input' },
    });
    expect(await call('addStream', { name: 'none', sources: [] })).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    expect(await call('editStream', { name: 'ghost', sources: ['rtsp://x'] })).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect(await call('editStream', { name: 'yard', sources: ['rtsp://127.0.0.1:2/y'] })).toEqual({ ok: true });
    expect(await readFile(relay.running.configPath, 'utf8')).toContain('yard: rtsp://127.0.0.1:2/y');
    expect(await call('deleteStream', { name: 'yard' })).toEqual({ ok: true });
    expect(await readFile(relay.running.configPath, 'utf8')).not.toContain('yard');
  });

  it('pushes the streams to a console that opens after a time with none, within a tick', async () => {
    relay = await startRelay('  door: rtsp://127.0.0.1:1/d\n');
    const services = relay.running.engine.services;
    // Ticks pass with nobody listening (nothing is built for them), then a console subscribes.
    await quietFor(1_500);
    const pushed = new Promise<unknown>((resolve) => {
      const sub = services.subscribe('relay', 'onStreams', (list) => {
        if (sub.ok) sub.value();
        resolve(list);
      });
    });
    const list = (await within(pushed, 2_500, 'a push within a tick of subscribing')) as Array<{ name: string }>;
    expect(list.map((stream) => stream.name)).toEqual(['door']);
  });

  it('edits several sources in order and renames a stream in one write, keeping saved logins and comments', async () => {
    relay = await startRelay('  # the front door\n  door: rtsp://admin:pw@10.0.0.9/main\n  yard: rtsp://127.0.0.1:1/y\n');
    const call = (method: string, input?: unknown) => relay!.running.engine.services.call('relay', method, input);
    const api = async () =>
      (await (await fetch(`${relay!.api}/api/streams`)).json()) as Record<string, { producers: Array<{ url: string }> }>;

    // Two sources, the saved one sent back masked, the new one first.
    expect(await call('editStream', { name: 'door', sources: ['ffmpeg:door#audio=opus', 'rtsp://***@10.0.0.9/main'] })).toEqual({
      ok: true,
    });
    expect(await readFile(relay.running.configPath, 'utf8')).toContain(
      '  # the front door\n  door:\n    - ffmpeg:door#audio=opus\n    - rtsp://admin:pw@10.0.0.9/main\n',
    );

    // A masked source that was never saved is not written with *** as its password.
    expect(await call('editStream', { name: 'door', sources: ['rtsp://***@10.0.0.9/other'] })).toMatchObject({
      ok: false,
      error: { code: 'invalid_input', message: expect.stringContaining('type the login again') },
    });
    // A name that is taken is refused, and nothing changes.
    expect(await call('editStream', { name: 'door', newName: 'yard', sources: ['rtsp://***@10.0.0.9/main'] })).toMatchObject({
      ok: false,
      error: { code: 'conflict', message: 'a stream named yard exists already: choose another name, or delete that stream first' },
    });

    expect(
      await call('editStream', { name: 'door', newName: 'porch', sources: ['rtsp://***@10.0.0.9/main', 'ffmpeg:porch#audio=opus'] }),
    ).toEqual({ ok: true });
    const text = await readFile(relay.running.configPath, 'utf8');
    expect(text).toContain('  # the front door\n  porch:\n    - rtsp://admin:pw@10.0.0.9/main\n    - ffmpeg:porch#audio=opus\n  yard:');
    expect(text).not.toMatch(/\bdoor:/);
    expect(Object.keys(await api())).toEqual(['porch', 'yard']);
    expect((await api()).porch!.producers.map((p) => p.url)).toEqual(['rtsp://admin:pw@10.0.0.9/main', 'ffmpeg:porch#audio=opus']);
  });

  it('a rename cuts off the viewers of the old name, who come back by the new one', async () => {
    relay = await startRelay('  door: ffmpeg:virtual?video=testsrc&size=160x120#video=h264\n');
    const call = (method: string, input?: unknown) => relay!.running.engine.services.call('relay', method, input);
    const viewer = await fetch(`${relay.api}/api/stream.mp4?src=door`);
    const reader = viewer.body!.getReader();
    expect((await reader.read()).done).toBe(false);
    const consumers = async (name: string) =>
      ((await (await fetch(`${relay!.api}/api/streams?src=${name}`)).json()) as { consumers: unknown[] }).consumers;
    expect(await consumers('door')).toHaveLength(1);

    expect(
      await call('editStream', { name: 'door', newName: 'porch', sources: ['ffmpeg:virtual?video=testsrc&size=160x120#video=h264'] }),
    ).toEqual({ ok: true });
    // The old name's viewer ends (go2rtc would leave it on an orphaned stream); nothing runs under the old name.
    const drained = async () => {
      for (;;) if ((await reader.read().catch(() => ({ done: true }))).done) return true;
    };
    expect(await drained()).toBe(true);
    expect((await fetch(`${relay.api}/api/streams?src=door`)).status).toBe(404);
    const again = await fetch(`${relay.api}/api/stream.mp4?src=porch`);
    const next = again.body!.getReader();
    expect((await next.read()).done).toBe(false);
    await next.cancel();
  });

  it('every scheme the add-stream form suggests is one the relay accepts from the console', async () => {
    relay = await startRelay();
    const call = (method: string, input?: unknown) => relay!.running.engine.services.call('relay', method, input);
    for (const hint of SOURCE_HINTS) {
      const checked = (await call('checkSource', { source: hint.example })) as { ok: true; value: { problem?: string; schemes: string[] } };
      expect(checked.value.problem, hint.example).toBeUndefined();
      expect(checked.value.schemes).toContain(hint.scheme);
    }
    for (const scheme of CODE_RUNNING_SCHEMES) {
      const checked = (await call('checkSource', { source: `${scheme}:ls` })) as { ok: true; value: { problem?: string } };
      expect(checked.value.problem, scheme).toMatch(/config file only/);
    }
  });

  it('validates config text before it is written, with line numbers', async () => {
    relay = await startRelay();
    const call = (method: string, input?: unknown) => relay!.running.engine.services.call('relay', method, input);
    const bad = await call('validateConfig', { text: 'streams:\n  a: [\n' });
    expect(bad).toMatchObject({
      ok: true,
      value: { problems: [{ line: expect.any(Number), message: expect.stringContaining('invalid YAML') }] },
    });
    const unknown = await call('validateConfig', { text: 'streams:\n  a: nope://x\n' });
    expect(unknown).toMatchObject({
      ok: true,
      value: {
        problems: [{ severity: 'error', line: 2, column: 3, message: expect.stringContaining('streams.a: streams: source not supported') }],
      },
    });
    expect(await call('validateConfig', { text: '# c\napi:\n  listen: nowhere\n' })).toMatchObject({
      ok: true,
      value: { problems: [{ severity: 'error', line: 3, column: 3, message: expect.stringContaining('api.listen') }] },
    });
    expect(await call('validateConfig', { text: 'api:\n  lisen: 1\n' })).toMatchObject({
      ok: true,
      value: { problems: [{ severity: 'warning', line: 2, column: 3, message: expect.stringContaining('did you mean api.listen') }] },
    });
    expect(await call('validateConfig', { text: 'streams:\n  a: rtsp://x\n' })).toEqual({ ok: true, value: { problems: [] } });
    const before = await readFile(relay.running.configPath, 'utf8');
    expect(await call('writeConfig', { text: 'api: [' })).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    expect(await readFile(relay.running.configPath, 'utf8')).toBe(before);
  });

  it('writes the config only over the revision it was read at, and says when the file changed on disk', async () => {
    relay = await startRelay();
    const call = (method: string, input?: unknown) => relay!.running.engine.services.call('relay', method, input);
    const changes: Array<{ revision: string }> = [];
    relay.running.engine.services.subscribe('relay', 'onConfigFile', (payload) => changes.push(payload as { revision: string }));
    const read = (await call('readConfig')) as { ok: true; value: { text: string; revision: string } };
    // Someone edits the file in another editor.
    await writeFile(relay.running.configPath, `${read.value.text}# edited elsewhere\n`);
    await expect.poll(() => changes.length, { timeout: 5_000 }).toBe(1);
    const reread = (await call('readConfig')) as { ok: true; value: { text: string; revision: string } };
    expect(reread.value.text).toContain('# edited elsewhere');
    expect(changes[0]!.revision).toBe(reread.value.revision);
    expect(await call('writeConfig', { text: `${read.value.text}# mine\n`, baseRevision: read.value.revision })).toMatchObject({
      ok: false,
      error: { code: 'conflict', message: expect.stringContaining('changed on disk') },
    });
    expect(await readFile(relay.running.configPath, 'utf8')).toContain('# edited elsewhere');
    const written = await call('writeConfig', { text: `${reread.value.text}# mine\n`, baseRevision: reread.value.revision });
    expect(written).toMatchObject({ ok: true, value: { revision: expect.not.stringMatching(reread.value.revision) } });
    expect(await readFile(relay.running.configPath, 'utf8')).toMatch(/# edited elsewhere\n# mine\n$/);
  });

  it('applies a file edited on disk when asked, as a save would: streams change without a restart', async () => {
    relay = await startRelay('  door: rtsp://127.0.0.1:1/door\n  gone: rtsp://127.0.0.1:1/gone\n');
    const call = (method: string, input?: unknown) => relay!.running.engine.services.call('relay', method, input);
    type File = { text: string; revision: string; runningRevision: string };
    const read = async () => ((await call('readConfig')) as { ok: true; value: File }).value;
    const names = async () =>
      ((await call('listStreams')) as { ok: true; value: Array<{ name: string; producers: Array<{ url: string }> }> }).value;
    const changes: Array<{ revision: string }> = [];
    relay.running.engine.services.subscribe('relay', 'onConfigFile', (payload) => changes.push(payload as { revision: string }));
    const start = await read();
    expect(start.runningRevision).toBe(start.revision);

    // Someone edits the file in another editor: a stream added, one changed, one removed, the log level.
    const edited = start.text
      .replace('door: rtsp://127.0.0.1:1/door', 'door: rtsp://127.0.0.1:2/door')
      .replace('  gone: rtsp://127.0.0.1:1/gone\n', '  yard: rtsp://127.0.0.1:1/yard\n  runner: exec:true\n')
      .replace('level: error', 'level: warn');
    await writeFile(relay.running.configPath, edited);
    await expect.poll(() => changes.length, { timeout: 5_000 }).toBe(1);
    const changed = await read();
    expect(changed.text).toBe(edited);
    expect(changes[0]!.revision).toBe(changed.revision);
    // Not applied by itself, and the console can tell.
    expect(changed.runningRevision).toBe(start.revision);
    expect((await names()).map((s) => s.name).sort()).toEqual(['door', 'gone']);

    expect(await call('applyConfigFile', { revision: start.revision })).toMatchObject({ ok: false, error: { code: 'conflict' } });
    expect(await call('applyConfigFile', { revision: changed.revision })).toEqual({
      ok: true,
      value: {
        revision: changed.revision,
        streams: { added: ['yard', 'runner'], changed: ['door'], removed: ['gone'] },
        restartNeeded: ['log'],
      },
    });
    const after = await names();
    expect(after.map((s) => s.name).sort()).toEqual(['door', 'runner', 'yard']);
    expect(after.find((s) => s.name === 'door')?.producers[0]?.url).toBe('rtsp://127.0.0.1:2/door');
    expect((await read()).runningRevision).toBe(changed.revision);
    expect(await readFile(relay.running.configPath, 'utf8')).toBe(edited);
    // The apply wrote the same bytes back: no change on disk to report.
    await quietFor(500);
    expect(changes).toHaveLength(1);
  });

  it('applies nothing from a file on disk that does not parse, and says where it is wrong', async () => {
    relay = await startRelay('  door: rtsp://127.0.0.1:1/door\n');
    const call = (method: string, input?: unknown) => relay!.running.engine.services.call('relay', method, input);
    const changes: Array<{ revision: string }> = [];
    relay.running.engine.services.subscribe('relay', 'onConfigFile', (payload) => changes.push(payload as { revision: string }));
    const broken = `${await readFile(relay.running.configPath, 'utf8')}  yard: [rtsp://127.0.0.1:1/yard\n`;
    await writeFile(relay.running.configPath, broken);
    await expect.poll(() => changes.length, { timeout: 5_000 }).toBe(1);
    const applied = await call('applyConfigFile', { revision: changes[0]!.revision });
    expect(applied).toMatchObject({
      ok: false,
      error: {
        code: 'invalid_input',
        message: expect.stringMatching(/invalid YAML.*\(line \d+, column \d+\); nothing was applied$/),
        details: { line: expect.any(Number), column: expect.any(Number) },
      },
    });
    expect(await call('listStreams')).toMatchObject({ ok: true, value: [{ name: 'door' }] });
    expect(await readFile(relay.running.configPath, 'utf8')).toBe(broken);
  });

  it('checks a source the way addStream would, without saving or dialing it', async () => {
    relay = await startRelay();
    const call = (method: string, input?: unknown) => relay!.running.engine.services.call('relay', method, input);
    const ok = (await call('checkSource', { source: 'rtsp://10.0.0.9/s' })) as { ok: true; value: { problem?: string; schemes: string[] } };
    expect(ok.value.problem).toBeUndefined();
    expect(ok.value.schemes).toEqual(expect.arrayContaining(['rtsp', 'http', 'ffmpeg']));
    expect(ok.value.schemes).not.toContain('exec');
    expect(await call('checkSource', { source: 'exec:ls' })).toMatchObject({
      ok: true,
      value: { problem: 'source exec runs commands and is accepted from the config file only' },
    });
    expect(await call('checkSource', { source: 'nope://x' })).toMatchObject({
      ok: true,
      value: { problem: expect.stringMatching(/^source not supported: nope \(supported: .*rtsp/) },
    });
    expect(await call('listStreams')).toEqual({ ok: true, value: [] });
  });

  it('tells where the RTSP server listens, for links, and whether it asks for a login', async () => {
    relay = await startRelay('', '', 0, '  username: admin\n  password: secret\n');
    const endpoints = await relay.running.engine.services.call('relay', 'endpoints', undefined);
    expect(endpoints).toEqual({ ok: true, value: { rtsp: { host: '127.0.0.1', port: relay.rtspPort, needsLogin: true } } });
    expect(JSON.stringify(endpoints)).not.toContain('secret');
    expect(rtspEndpoint({ listen: '', port: undefined })).toBeUndefined();
    expect(rtspEndpoint({ listen: ':8554', port: 8554 })).toEqual({ host: '', port: 8554, needsLogin: false });
    expect(rtspEndpoint({ listen: '[::1]:0', port: 40001 })).toEqual({ host: '::1', port: 40001, needsLogin: false });
  });

  it('gives the JSON Schema of the config for the editor', async () => {
    relay = await startRelay();
    const schema = (await relay.running.engine.services.call('relay', 'configSchema', undefined)) as {
      ok: true;
      value: { schema: { properties: Record<string, unknown> } };
    };
    expect(Object.keys(schema.value.schema.properties)).toEqual(expect.arrayContaining(['rtsp', 'webrtc', 'streams']));
  });

  it('probes a source before it is saved: codecs and size of a live one, the error of a dead one', async () => {
    relay = await startRelay();
    const call = (method: string, input?: unknown) => relay!.running.engine.services.call('relay', method, input);
    const live = await call('probeSource', { source: 'ffmpeg:virtual?video=testsrc&size=320x240#video=h264' });
    expect(live).toMatchObject({
      ok: true,
      value: { medias: [expect.stringContaining('H264')], codecs: [{ kind: 'video', name: 'h264', width: 320, height: 240 }] },
    });
    expect((live as { value: { error?: string } }).value.error).toBeUndefined();
    const dead = await call('probeSource', { source: 'rtsp://127.0.0.1:1/nothing' });
    expect(dead).toMatchObject({ ok: true, value: { medias: [], codecs: [], error: expect.stringMatching(/ECONNREFUSED|refused/) } });
    expect(await call('probeSource', { source: 'exec:ls' })).toMatchObject({
      ok: false,
      error: { code: 'invalid_input', message: expect.stringContaining('config file only') },
    });
    expect(await call('listStreams')).toEqual({ ok: true, value: [] });
  }, 20_000);
});
