import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTwoWayCamera, type TwoWayCamera } from '../protocols/rtsp/test-support/two-way-camera';
import { run, startRelay, type RelayUnderTest } from '../test/relay-test-kit';

/**
 * The request sequences of go2rtc's best-known clients, replayed as they send them: Home
 * Assistant's go2rtc integration (python-go2rtc-client: version check, schemes, add a camera
 * with two sources, compare the producers it reads back) and Frigate (probe with
 * video=all&audio=all&microphone, PUT with a name only). Each assertion is what that client checks.
 */

/** Home Assistant's rule: 1.9.13 ≤ version < 2.0.0, compared as versions. */
function homeAssistantAccepts(version: string): boolean {
  const parts = version.split('.').map(Number);
  if (parts.length < 3 || parts.some((n) => !Number.isInteger(n))) return false;
  const [major, minor, patch] = parts as [number, number, number];
  const atLeast = major > 1 || (major === 1 && (minor > 9 || (minor === 9 && patch >= 13)));
  return atLeast && major < 2;
}

describe('go2rtc clients against the relay', () => {
  let relay: RelayUnderTest;
  let camera: TwoWayCamera;
  beforeAll(async () => {
    camera = await startTwoWayCamera();
    relay = await startRelay(`  doorbell: ${camera.url}\n  frigate_cam:\n`);
  });
  afterAll(async () => {
    await relay?.stop();
    await camera?.close();
  });

  const api = (path: string, init?: RequestInit) => fetch(`${relay.api}${path}`, init);

  it('Home Assistant: the version check passes, and the app version is there apart', async () => {
    const info = (await (await api('/api')).json()) as { version: string; app_version: string };
    expect(homeAssistantAccepts(info.version)).toBe(true);
    expect(info.app_version).toBe('test');
    expect(homeAssistantAccepts('0.1.0')).toBe(false); // the check itself can fail
  });

  it('Home Assistant: lists schemes, adds a camera with two sources in order, reads back what it wrote', async () => {
    const schemes = (await (await api('/api/schemes')).json()) as string[];
    expect(schemes).toEqual(expect.arrayContaining(['rtsp', 'rtsps', 'ffmpeg', 'http', 'https']));

    const cameraUrl = 'rtsp://admin:p%40ss@127.0.0.1:1/cam';
    const transcode = 'ffmpeg:camera.front#audio=opus#query=log_level=debug';
    const params = new URLSearchParams([
      ['name', 'camera.front'],
      ['src', cameraUrl],
      ['src', transcode],
    ]);
    const put = await api(`/api/streams?${params}`, { method: 'PUT' });
    expect(put.status, await put.text()).toBe(200);

    // Home Assistant compares the producers' URLs with the sources it added, to know the stream is set up.
    const streams = (await (await api('/api/streams')).json()) as Record<string, { producers: Array<{ url: string }> }>;
    expect(streams['camera.front']!.producers.map((p) => p.url)).toEqual([cameraUrl, transcode]);
    expect(await readFile(relay.running.configPath, 'utf8')).toMatch(
      /camera\.front:\n\s+- rtsp:\/\/admin:p%40ss@127\.0\.0\.1:1\/cam\n\s+- ffmpeg:camera\.front#audio=opus#query=log_level=debug/,
    );
  });

  it('Frigate: probes a camera for audio and two-way talk, and the camera gets hung up after', async () => {
    const response = await api('/api/streams?src=doorbell&video=all&audio=all&microphone');
    expect(response.status).toBe(200);
    const probe = (await response.json()) as { producers: Array<{ url: string; medias?: string[] }> };
    expect(probe.producers).toHaveLength(1);
    // Frigate reads audio from a recvonly audio media and two-way talk from a sendonly one.
    expect(probe.producers[0]!.medias).toEqual(
      expect.arrayContaining([expect.stringMatching(/^audio, recvonly, PCMU/), expect.stringMatching(/^audio, sendonly, PCMA/)]),
    );
    expect(camera.describeRequires.at(-1)).toBe('www.onvif.org/ver20/backchannel');
    // Nobody watches: the probe's connection does not stay open.
    const after = (await (await api('/api/streams?src=doorbell')).json()) as {
      producers: Array<{ medias?: string[] }>;
      consumers: unknown[];
    };
    expect(after.consumers).toEqual([]);
    expect(after.producers[0]!.medias).toBeUndefined();
  });

  it('Frigate: a PUT with only a name answers 200 with the streams and changes nothing', async () => {
    const before = await readFile(relay.running.configPath, 'utf8');
    const put = await api('/api/streams?name=frigate_cam', { method: 'PUT' });
    expect(put.status).toBe(200);
    expect(Object.keys((await put.json()) as object)).toEqual(expect.arrayContaining(['doorbell', 'frigate_cam']));
    expect(await readFile(relay.running.configPath, 'utf8')).toBe(before);
  });

  it('status codes clients rely on: DELETE of an unknown stream is 200, PATCH of an unknown name creates it', async () => {
    expect((await api('/api/streams?src=never_was', { method: 'DELETE' })).status).toBe(200);
    const patch = await api(`/api/streams?name=made_by_patch&src=${encodeURIComponent('rtsp://127.0.0.1:1/x')}`, { method: 'PATCH' });
    expect(patch.status).toBe(200);
    const made = (await (await api('/api/streams?src=made_by_patch')).json()) as { producers: Array<{ url: string }> };
    expect(made.producers.map((p) => p.url)).toEqual(['rtsp://127.0.0.1:1/x']);
    expect(await readFile(relay.running.configPath, 'utf8')).toContain('made_by_patch: rtsp://127.0.0.1:1/x');
  });

  it('Safari asking for stream.mp4 is sent to HLS with fMP4, keeping the query; a download stays MP4', async () => {
    const safari = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15';
    const chrome = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';
    const redirected = await api('/api/stream.mp4?src=doorbell&video=h264', { headers: { 'User-Agent': safari }, redirect: 'manual' });
    expect(redirected.status).toBe(301);
    expect(redirected.headers.get('location')).toBe('stream.m3u8?src=doorbell&video=h264&mp4');
    const download = await api('/api/stream.mp4?src=nope&duration=5', { headers: { 'User-Agent': safari }, redirect: 'manual' });
    expect(download.status).toBe(404);
    const notSafari = await api('/api/stream.mp4?src=nope', { headers: { 'User-Agent': chrome }, redirect: 'manual' });
    expect(notSafari.status).toBe(404);
  });
});

describe('stream.mp4?rotate', () => {
  let relay: RelayUnderTest;
  beforeAll(async () => {
    relay = await startRelay('  pattern: ffmpeg:virtual?video=testsrc&size=320x240#video=h264\n');
  });
  afterAll(async () => relay?.stop());

  it('writes the turn into the video track, as players read it (ffprobe shows the display matrix)', async () => {
    for (const rotate of [90, 180, 270]) {
      const url = `${relay.api}/api/stream.mp4?src=pattern&duration=1&rotate=${rotate}`;
      const probed = await run(
        'ffprobe',
        ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'stream=width,height:stream_side_data=rotation', '-of', 'json', url],
        30_000,
      );
      expect(probed.code, probed.stderr).toBe(0);
      const stream = (
        JSON.parse(probed.stdout) as { streams: Array<{ width: number; height: number; side_data_list?: Array<{ rotation?: number }> }> }
      ).streams[0]!;
      expect([stream.width, stream.height]).toEqual([320, 240]);
      // ffprobe says the display matrix turns the picture counter-clockwise by `rotation` degrees.
      const counterClockwise = stream.side_data_list?.[0]?.rotation;
      expect(counterClockwise, `rotate=${rotate}`).toBeDefined();
      expect((360 + counterClockwise!) % 360).toBe((360 - rotate) % 360);
    }
    const bad = await fetch(`${relay.api}/api/stream.mp4?src=pattern&rotate=45`);
    expect([bad.status, await bad.text()]).toEqual([400, 'rotate must be 90, 180 or 270 (degrees clockwise), not "45"\n']);
  }, 60_000);
});
