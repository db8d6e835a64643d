import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '@main/test-support/free-port';
import { publishTestPattern, startRelay, type RelayUnderTest } from '../../test/relay-test-kit';
import type { ChildProcess } from 'node:child_process';
import { waitUntil } from '@main/test-support/time';

// go2rtc's preload: a stream kept connected to its camera with nobody watching, from the config
// and through /api/preload, which also writes the config.
let relay: RelayUnderTest;
let camera: ChildProcess;

interface StreamJson {
  producers: { url: string; receivers?: unknown[] }[];
  consumers: { format_name?: string }[];
}
const stream = async (name: string) => ((await (await fetch(`${relay.api}/api/streams`)).json()) as Record<string, StreamJson>)[name]!;
/** The value once `done` says so, or the last one read at the deadline (the assertion after it says what it was). */
async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, ms = 15_000): Promise<T> {
  let value!: T;
  await waitUntil(async () => done((value = await read())), { timeout: ms, interval: 100 }).catch(() => undefined);
  return value;
}
const connected = (s: StreamJson) => (s.producers[0]?.receivers?.length ?? 0) > 0;

beforeAll(async () => {
  const port = await freePort();
  // `camera` is fed by ffmpeg; `cam` pulls it over RTSP like a real camera, and is preloaded.
  relay = await startRelay(
    `  camera:\n  cam: rtsp://127.0.0.1:${port}/camera\n  other: rtsp://127.0.0.1:${port}/camera\n`,
    'preload:\n  cam: video\n',
    port,
  );
  camera = publishTestPattern(relay.rtspUrl('camera'), 60);
}, 30_000);
afterAll(async () => {
  camera.kill('SIGKILL');
  await relay.stop();
});

describe('preload', () => {
  it('keeps a configured stream connected with no viewer; a stream without preload stays idle', async () => {
    const cam = await until(() => stream('cam'), connected);
    expect(connected(cam)).toBe(true);
    expect(cam.consumers.map((c) => c.format_name)).toEqual(['preload']);
    expect(connected(await stream('other'))).toBe(false);
    const list = (await (await fetch(`${relay.api}/api/preload`)).json()) as Record<
      string,
      { query: string; consumer: { format_name: string } | null }
    >;
    expect(list).toEqual({ cam: { query: 'video', consumer: expect.objectContaining({ format_name: 'preload' }) } });
  });

  it('PUT starts one and writes it to the config; DELETE stops it and removes it; an unknown stream is 404', async () => {
    const put = await fetch(`${relay.api}/api/preload?src=other&video&audio&mp4`, { method: 'PUT' });
    expect(put.status).toBe(200);
    expect(connected(await until(() => stream('other'), connected))).toBe(true);
    expect(await readFile(relay.running.configPath, 'utf8')).toMatch(/preload:\n {2}cam: video\n {2}other: video&audio\n/);

    const removed = await fetch(`${relay.api}/api/preload?src=other`, { method: 'DELETE' });
    expect(removed.status).toBe(200);
    expect(
      connected(
        await until(
          () => stream('other'),
          (s) => !connected(s),
        ),
      ),
    ).toBe(false);
    expect(await readFile(relay.running.configPath, 'utf8')).not.toContain('other: video&audio');

    const unknown = await fetch(`${relay.api}/api/preload?src=nope&video`, { method: 'PUT' });
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toContain('stream not found: nope');
    expect((await fetch(`${relay.api}/api/preload?src=nope`, { method: 'DELETE' })).status).toBe(404);
    expect((await fetch(`${relay.api}/api/preload`, { method: 'POST' })).status).toBe(405);
  });
});
