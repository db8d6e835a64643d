import type { ChildProcess } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { remoteStreamSource, type RelayInfo, type RelayStreams } from '@shared/contract/relays';
import { startTestEngine, type TestEngine } from '@main/engine/test-engine';
import { relayModule } from '@main/relay/relay-module';
import { recordingsModule } from '@main/recordings/recordings-module';
import { createStorageClientModule } from '@main/storage/client/storage-client-module';
import { storageEmulatorModule } from '@main/storage/emulator/storage-emulator-module';
import { probe, publishTestPattern, run } from '@main/relay/test/relay-test-kit';
import { waitUntil } from '@main/test-support/time';
import { createRelaysModule } from './relays-module';
import { startRemoteRelay, type RemoteRelay } from './test-support/remote-relay';

/**
 * Two more instances of this app, headless on loopback, as the remote relays `north` (in the
 * config) and `south` (added in the console, with a login); the console's relays poll at their
 * default pace, so the times asserted are the ones users get.
 */
const SOUTH_LOGIN = { username: 'admin', password: 's3cret-south' };
const south64 = `Basic ${Buffer.from(`${SOUTH_LOGIN.username}:${SOUTH_LOGIN.password}`).toString('base64')}`;

let north: RemoteRelay;
let south: RemoteRelay;
let main: TestEngine;
let camera: ChildProcess | undefined;
const relayEvents: RelayInfo[][] = [];
const streamEvents: RelayStreams[][] = [];

const call = async <T>(method: string, input?: unknown): Promise<T> => {
  const result = await main.engine.services.call('relays', method, input);
  if (!result.ok) throw Object.assign(new Error(`${method}: ${result.error.code}: ${result.error.message}`), { code: result.error.code });
  return result.value as T;
};
const failure = (method: string, input?: unknown) =>
  main.engine.services.call('relays', method, input).then((result) => (result.ok ? undefined : result.error));
const relayNamed = (name: string) => call<RelayInfo[]>('list').then((list) => list.find((r) => r.name === name));
const southStreams = async () =>
  (await (await fetch(`${south.url}/api/streams`, { headers: { Authorization: south64 } })).json()) as Record<
    string,
    { producers: Array<{ url: string }> }
  >;
const mp4Of = (src: string) => `${main.engine.url}/api/stream.mp4?src=${encodeURIComponent(src)}`;
const codecsOf = async (url: string) =>
  (await probe(url)).map((s) => `${s.codec_type}:${s.codec_name}${s.width ? `:${s.width}x${s.height}` : ''}`).sort();

/** The test camera of north: a 320x240 H.264 + AAC pattern published into its stream `yard`. */
async function publishYard(): Promise<void> {
  camera?.kill('SIGKILL');
  camera = publishTestPattern(`rtsp://127.0.0.1:${north.rtspPort}/yard`, 300);
  await waitUntil(
    async () => {
      const streams = (await (await fetch(`${north.url}/api/streams?src=yard`)).json()) as { producers: Array<{ medias?: string[] }> };
      return streams.producers.some((p) => p.medias?.length);
    },
    { timeout: 15_000, what: "north's camera publishing into yard" },
  );
}

beforeAll(async () => {
  north = await startRemoteRelay({ streams: '  yard:\n' });
  south = await startRemoteRelay({
    api: `  username: ${SOUTH_LOGIN.username}\n  password: ${SOUTH_LOGIN.password}\n`,
    streams: `  chain: rtsp://127.0.0.1:${north.rtspPort}/yard\n`,
  });
  await publishYard();
  main = await startTestEngine({
    modules: [relayModule, storageEmulatorModule, createStorageClientModule(), createRelaysModule(), recordingsModule],
    config: [
      '# the console under test\ndata_dir: ./data\napi:\n  listen: 127.0.0.1:0\nrtsp:\n  listen: 127.0.0.1:0\nwebrtc:\n  listen: 127.0.0.1:0',
      'log:\n  level: error',
      'storage:\n  emulator:\n    listen: 127.0.0.1:0\n    accounts:',
      '      - access_key: relays-ak\n        secret_key: relays-sk-secret\n        buckets:\n          - name: rec\n            domains: [rec.test]',
      `relays:\n  # the relay in the shed\n  north: ${north.url}`,
      'streams:\n  north_yard: relay://north/yard',
      // Item 7: a remote relay's stream recorded into a bucket like any camera.
      'recordings:\n  north_yard:\n    bucket: rec\n    segment: 2s\n    schedule: always',
      '',
    ].join('\n'),
  });
  main.engine.services.subscribe('relays', 'onRelays', (list) => relayEvents.push(list as RelayInfo[]));
  main.engine.services.subscribe('relays', 'onStreams', (list) => streamEvents.push(list as RelayStreams[]));
}, 60_000);

afterAll(async () => {
  camera?.kill('SIGKILL');
  await main?.stop();
  await north?.remove();
  await south?.remove();
});

describe('remote relays (two more headless instances of this app)', () => {
  it('adds a relay with a login after testing it, keeps the login sealed, and lists both with their health', async () => {
    expect(await call('test', { url: `http://${SOUTH_LOGIN.username}:wrong@127.0.0.1:${south.apiPort}` })).toMatchObject({
      ok: false,
      error: expect.stringContaining('HTTP 401'),
    });
    expect(await failure('add', { name: 'south', url: south.url, login: { ...SOUTH_LOGIN, password: 'wrong' } })).toMatchObject({
      code: 'unavailable',
    });
    await call('add', { name: 'south', url: south.url, login: SOUTH_LOGIN });
    expect(await failure('add', { name: 'South', url: south.url })).toMatchObject({ code: 'conflict' });

    const config = await readFile(main.configPath, 'utf8');
    expect(config).toContain(`  # the relay in the shed\n  north: ${north.url}\n  south: ${south.url}\n`);
    for (const file of await readdir(join(main.dir, 'data', 'relays'))) {
      expect(await readFile(join(main.dir, 'data', 'relays', file), 'latin1')).not.toContain(SOUTH_LOGIN.password);
    }

    // The console learns of it from the event, without asking.
    await waitUntil(() => relayEvents.at(-1)?.length === 2 && relayEvents.at(-1)!.every((r) => r.state === 'reachable' && r.health), {
      timeout: 10_000,
      what: 'both relays reachable',
    });
    const list = await call<RelayInfo[]>('list');
    expect(JSON.stringify(list)).not.toContain(SOUTH_LOGIN.password);
    expect(list.map((r) => [r.name, r.url, r.origin, r.hasLogin, r.username ?? null])).toEqual([
      ['north', north.url, 'config', false, null],
      ['south', south.url, 'console', true, 'admin'],
    ]);
    expect(list[0]!.health).toMatchObject({ version: '1.9.14', streams: 1, producers: 1, rtspPort: north.rtspPort });
    expect(list[1]!.health).toMatchObject({ streams: 1, rtspPort: south.rtspPort });
    expect(list[1]!.configEditable).toBe(true);

    const streams = await call<RelayStreams[]>('streams');
    expect(streams.map((r) => [r.relay, r.streams.map((s) => s.name)])).toEqual([
      ['north', ['yard']],
      ['south', ['chain']],
    ]);
    expect(streams[0]!.streams[0]!.producers[0]!.medias.join()).toContain('H264');
    await waitUntil(() => streamEvents.at(-1)?.length === 2, { what: 'both relays streams told' });
    expect(streamEvents.at(-1)).toEqual(streams);
  }, 30_000);

  it('adds, renames and deletes a stream on a remote relay through its API, and probes there', async () => {
    await call('addStream', { relay: 'south', name: 'door', sources: ['rtsp://cam:pw@127.0.0.1:9/door'] });
    expect((await southStreams()).door?.producers.map((p) => p.url)).toEqual(['rtsp://cam:pw@127.0.0.1:9/door']);
    expect(await failure('addStream', { relay: 'south', name: 'chain', sources: ['rtsp://127.0.0.1:9/x'] })).toMatchObject({
      code: 'conflict',
    });
    expect(await failure('addStream', { relay: 'south', name: 'bad', sources: ['exec:rm -rf /'] })).toMatchObject({
      code: 'invalid_input',
      message: expect.stringContaining('relay south: HTTP 400'),
    });

    // The console shows the login masked; sent back as shown, the relay keeps it.
    const shown = (await call<RelayStreams[]>('streams')).find((r) => r.relay === 'south')!.streams.find((s) => s.name === 'door')!;
    expect(shown.sources).toEqual(['rtsp://***@127.0.0.1:9/door']);
    await call('editStream', { relay: 'south', name: 'door', newName: 'porch', sources: [...shown.sources, 'rtsp://127.0.0.1:9/porch2'] });
    const after = await southStreams();
    expect(after.door).toBeUndefined();
    expect(after.porch?.producers.map((p) => p.url)).toEqual(['rtsp://cam:pw@127.0.0.1:9/door', 'rtsp://127.0.0.1:9/porch2']);
    expect(await readFile(join(south.dir, 'relay-console.yaml'), 'utf8')).toContain('porch:');

    await call('deleteStream', { relay: 'south', name: 'porch' });
    expect((await southStreams()).porch).toBeUndefined();
    expect(await failure('deleteStream', { relay: 'south', name: 'porch' })).toMatchObject({ code: 'not_found' });
    expect(await failure('deleteStream', { relay: 'east', name: 'porch' })).toMatchObject({ code: 'not_found' });

    expect((await call<{ medias: string[] }>('probeSource', { relay: 'north', source: 'yard' })).medias.join()).toMatch(/video.*H264/);
    const byUrl = await call<{ medias: string[] }>('probeSource', { relay: 'south', source: `rtsp://127.0.0.1:${north.rtspPort}/yard` });
    expect(byUrl.medias).toContain('video, recvonly, H264');
    expect((await call<{ error?: string }>('probeSource', { relay: 'north', source: 'nothing' })).error).toContain(
      'no stream named nothing',
    );
  }, 60_000);

  it("reads and writes a remote relay's config over the revision read, checked first", async () => {
    const read = await call<{ text: string; revision: string }>('readConfig', { relay: 'south' });
    expect(read.text).toContain('chain: rtsp://');
    expect(await call('validateConfig', { relay: 'south', text: 'streams:\n  a: [\n' })).toMatchObject({
      problems: [{ severity: 'error', line: expect.any(Number) }],
    });
    expect(await failure('writeConfig', { relay: 'south', text: 'streams: [', baseRevision: read.revision })).toMatchObject({
      code: 'invalid_input',
    });
    const edited = `${read.text}# edited from the console\n`;
    const written = await call<{ revision: string }>('writeConfig', { relay: 'south', text: edited, baseRevision: read.revision });
    expect(written.revision).not.toBe(read.revision);
    expect(await readFile(join(south.dir, 'relay-console.yaml'), 'utf8')).toBe(edited);
    expect(await failure('writeConfig', { relay: 'south', text: `${edited}# again\n`, baseRevision: read.revision })).toMatchObject({
      code: 'conflict',
    });
  }, 30_000);

  it('plays a remote stream through the embedded relay as relay://, and a chain of relays', async () => {
    // While someone watches, north's health counts the bytes in and out of its RTSP server.
    const watching = run(
      'ffmpeg',
      ['-hide_banner', '-i', mp4Of(remoteStreamSource('north', 'yard')), '-t', '10', '-map', '0:v', '-f', 'null', '-'],
      30_000,
    );
    const live = await waitUntil(
      async () => {
        const health = (await relayNamed('north'))?.health;
        return health && health.consumers > 0 && health.bytesIn > 0 && health.bytesOut > 0 ? health : undefined;
      },
      { timeout: 15_000, interval: 200, what: "north's health counting a viewer's bytes" },
    );
    expect(live.producers).toBeGreaterThan(0);
    expect(Number([...(await watching).stderr.matchAll(/frame=\s*(\d+)/g)].at(-1)?.[1])).toBeGreaterThan(100);
    expect(await codecsOf(mp4Of(remoteStreamSource('north', 'yard')))).toEqual(['audio:aac', 'video:h264:320x240']);
    const mainRtsp = (await (await fetch(`${main.engine.url}/api`)).json()) as { rtsp: { listen: string } };
    expect(await codecsOf(`rtsp://127.0.0.1:${mainRtsp.rtsp.listen.split(':').pop()}/north_yard`)).toEqual([
      'audio:aac',
      'video:h264:320x240',
    ]);
    // south pulls north's yard over RTSP; the console pulls south's chain with south's login.
    expect(await codecsOf(mp4Of('relay://south/chain'))).toEqual(['audio:aac', 'video:h264:320x240']);
    const unknown = await fetch(mp4Of('relay://east/yard'));
    expect(unknown.status).toBe(503);
    expect(await unknown.text()).toContain('there is no relay named east');
  }, 60_000);

  it("records a remote relay's stream into a bucket (recordings: of a relay:// stream)", async () => {
    type Status = { stream: string; uploaded: number; lastSegment?: { codecs: string; bytes: number; durationMs: number } };
    const recorded = await waitUntil(
      async () => {
        const result = await main.engine.services.call('recordings', 'status', undefined);
        const status = result.ok ? (result.value as Status[]).find((s) => s.stream === 'north_yard') : undefined;
        return status && status.uploaded >= 2 ? status : undefined;
      },
      { timeout: 30_000, interval: 250, what: 'two segments of north_yard in the bucket' },
    );
    expect(recorded.lastSegment!.codecs).toMatch(/avc1/);
    expect(recorded.lastSegment!.bytes).toBeGreaterThan(10_000);
    expect(recorded.lastSegment!.durationMs).toBeGreaterThanOrEqual(1_900);
  }, 40_000);

  it('says a stopped relay is unreachable within 15 s, and plays it again within 20 s of its return', async () => {
    const stoppedAt = Date.now();
    camera?.kill('SIGKILL');
    await north.stop();
    const down = await waitUntil(() => relayEvents.at(-1)?.find((r) => r.name === 'north' && r.state === 'unreachable'), {
      timeout: 15_000,
      interval: 50,
      what: 'north said unreachable',
    });
    expect(Date.now() - stoppedAt).toBeLessThan(15_000);
    expect(down.reason).toBe('connection refused');
    expect(down.sinceMs).toBeGreaterThanOrEqual(stoppedAt);
    expect((await call<RelayStreams[]>('streams')).map((r) => r.relay)).toEqual(['south']);
    await waitUntil(() => streamEvents.at(-1)?.length === 1, { what: "north's streams gone from the event" });
    expect(streamEvents.at(-1)?.map((r) => r.relay)).toEqual(['south']);

    const startedAt = Date.now();
    north = await startRemoteRelay({ again: north });
    await publishYard();
    await waitUntil(() => relayEvents.at(-1)?.find((r) => r.name === 'north' && r.state === 'reachable'), {
      timeout: 20_000,
      interval: 50,
      what: 'north reachable again',
    });
    expect(await codecsOf(mp4Of(remoteStreamSource('north', 'yard')))).toEqual(['audio:aac', 'video:h264:320x240']);
    expect(Date.now() - startedAt).toBeLessThan(20_000);
    expect((await relayNamed('north'))?.reason).toBeUndefined();
  }, 60_000);

  it('renames and removes a relay: the file follows, the login moves with it', async () => {
    await call('edit', { name: 'south', newName: 'south2' });
    expect(await readFile(main.configPath, 'utf8')).toContain(`  south2: ${south.url}\n`);
    await waitUntil(async () => (await relayNamed('south2'))?.state === 'reachable', { timeout: 10_000, what: 'south2 reachable' });
    expect(await relayNamed('south2')).toMatchObject({ hasLogin: true, username: 'admin', origin: 'console' });
    await call('remove', { name: 'south2' });
    expect(await readFile(main.configPath, 'utf8')).not.toContain('south2');
    expect((await call<RelayInfo[]>('list')).map((r) => r.name)).toEqual(['north']);
  }, 30_000);
});
