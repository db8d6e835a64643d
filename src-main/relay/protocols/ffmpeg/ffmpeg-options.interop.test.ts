import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probe, publishTestPattern, startRelay, waitFor, waitForMedia, type RelayUnderTest } from '../../test/relay-test-kit';
import { holdFor } from '@main/test-support/time';

/** go2rtc's ffmpeg: options through a running relay, checked with ffprobe on what viewers get. */
describe('ffmpeg: options in a running relay', () => {
  let relay: RelayUnderTest;
  let camera: ChildProcess;
  beforeAll(async () => {
    relay = await startRelay(
      [
        '  cam:',
        '  two_audio: ffmpeg:cam#video=copy#audio=copy#audio=opus',
        '  small: ffmpeg:cam#video=h264#raw=-vf scale=160:120',
        '  ha: ffmpeg:cam#audio=opus#query=log_level=debug',
        '  gpu: ffmpeg:cam#video=h264#hardware',
        '  tone: ffmpeg:virtual?video=testsrc&size=160x120&audio#audio=pcma',
        '',
      ].join('\n'),
    );
    camera = publishTestPattern(relay.rtspUrl('cam'), 120);
    await waitForMedia(relay, 'cam', 20_000);
  }, 40_000);
  afterAll(async () => {
    camera?.kill('SIGKILL');
    await relay?.stop();
  });

  it('repeated #audio= makes one track per codec, in order', async () => {
    const streams = await probe(`${relay.rtspUrl('two_audio')}?video&audio=all`);
    expect(streams.map((s) => s.codec_name)).toEqual(['h264', 'aac', 'opus']);
  }, 60_000);

  it("Home Assistant's two-source stream: ffmpeg:<its own name> transcodes the camera's audio, never reading itself", async () => {
    const params = new URLSearchParams([
      ['name', 'front'],
      ['src', relay.rtspUrl('cam')],
      ['src', 'ffmpeg:front#audio=opus'],
    ]);
    expect((await fetch(`${relay.api}/api/streams?${params}`, { method: 'PUT' })).status).toBe(200);
    // A viewer that takes only Opus is served by the ffmpeg source, which reads the camera through the stream.
    const streams = await probe(`${relay.rtspUrl('front')}?video&audio=opus`);
    expect(streams.map((s) => s.codec_name)).toEqual(['h264', 'opus']);
  }, 60_000);

  it('#raw= arguments reach ffmpeg (from the config file)', async () => {
    expect(await probe(relay.rtspUrl('small'))).toEqual([expect.objectContaining({ codec_name: 'h264', width: 160, height: 120 })]);
  }, 60_000);

  it("Home Assistant's ffmpeg:<name>#audio=opus#query=log_level=debug plays", async () => {
    expect((await probe(relay.rtspUrl('ha'))).map((s) => s.codec_name)).toEqual(['opus']);
  }, 60_000);

  it('#hardware encodes in software where no engine works, and /api/ffmpeg/hardware says what works', async () => {
    expect(await probe(relay.rtspUrl('gpu'))).toEqual([expect.objectContaining({ codec_name: 'h264', width: 320, height: 240 })]);
    const answer = (await (await fetch(`${relay.api}/api/ffmpeg/hardware`)).json()) as { sources: Array<{ name: string; url: string }> };
    expect(answer.sources.map((s) => s.url)).toEqual(
      expect.arrayContaining([
        'ffmpeg:...#video=h264#hardware=vaapi',
        'ffmpeg:...#video=h264#hardware=cuda',
        'ffmpeg:...#video=h264#hardware=v4l2m2m',
      ]),
    );
    for (const source of answer.sources) expect(['OK', 'ERROR']).toContain(source.name);
  }, 90_000);

  it('a virtual source with audio is paced in real time: G.711 at about 8 KB/s, not megabytes', async () => {
    const viewer = spawn(
      'ffmpeg',
      ['-hide_banner', '-loglevel', 'error', '-rtsp_transport', 'tcp', '-i', relay.rtspUrl('tone'), '-t', '8', '-f', 'null', '-'],
      { stdio: 'ignore' },
    );
    try {
      const received = async () =>
        ((await (await fetch(`${relay.api}/api/streams?src=tone`)).json()) as { producers: Array<{ bytes_recv?: number }> }).producers[0]
          ?.bytes_recv ?? 0;
      await waitFor(async () => ((await received()) > 0 ? true : undefined), 20_000);
      const start = { bytes: await received(), at: Date.now() };
      await holdFor(3_000); // the window the rate is measured over
      const perSecond = ((await received()) - start.bytes) / ((Date.now() - start.at) / 1000);
      expect(perSecond).toBeGreaterThan(4_000);
      expect(perSecond).toBeLessThan(30_000);
    } finally {
      viewer.kill('SIGKILL');
    }
  }, 60_000);

  it('the API refuses #raw= and files on this machine, and says why', async () => {
    const put = (src: string) => fetch(`${relay.api}/api/streams?name=x&src=${encodeURIComponent(src)}`, { method: 'PUT' });
    const raw = await put('ffmpeg:cam#video=h264#raw=-i /etc/shadow');
    expect([raw.status, await raw.text()]).toEqual([
      400,
      'streams: ffmpeg: #raw= passes arguments to ffmpeg as they are and is accepted from the config file only\n',
    ]);
    const query = await put('ffmpeg:cam#audio=opus#query=log_level=debug');
    expect(query.status).toBe(200);
  });
});
