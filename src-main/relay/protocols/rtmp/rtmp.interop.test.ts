import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '@main/test-support/free-port';
import { probe, run, startRelay, whenListening, type RelayUnderTest } from '../../test/relay-test-kit';
import { dialRtmp } from './rtmp-source';
import { waitUntil } from '@main/test-support/time';

// Publishers the way OBS and ffmpeg push (`-f flv rtmp://...`, app and stream key), played back
// over RTSP and stream.mp4; and rtmp:// sources played from ffmpeg's own RTMP server.

const PATTERN = [
  '-hide_banner',
  '-loglevel',
  'error',
  '-re',
  '-f',
  'lavfi',
  '-i',
  'testsrc=size=320x240:rate=25',
  '-f',
  'lavfi',
  '-i',
  'sine=frequency=440:sample_rate=44100',
  '-c:v',
  'libx264',
  '-preset',
  'ultrafast',
  '-tune',
  'zerolatency',
  '-g',
  '25',
  '-pix_fmt',
  'yuv420p',
  '-c:a',
  'aac',
  '-b:a',
  '64k',
  '-t',
  '30',
];
const children: ChildProcess[] = [];
const publish = (url: string, extra: string[] = []) => {
  const child = spawn('ffmpeg', [...PATTERN, '-f', 'flv', ...extra, url], { stdio: ['ignore', 'ignore', 'pipe'] });
  children.push(child);
  return child;
};
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

/** Until the stream has a producer: a publisher is a stream's source only once it sent its tracks. */
async function published(api: string, stream: string): Promise<void> {
  await waitUntil(
    async () => {
      const info = (await (await fetch(`${api}/api/streams?src=${stream}`)).json()) as { producers?: Array<{ format_name?: string }> };
      return info.producers?.some((p) => p.format_name === 'rtmp');
    },
    { timeout: 10_000, interval: 100, what: `${stream} to be published` },
  );
}

const EXPECTED = [
  expect.objectContaining({ codec_type: 'video', codec_name: 'h264', width: 320, height: 240 }),
  expect.objectContaining({ codec_type: 'audio', codec_name: 'aac' }),
];

describe('RTMP server', () => {
  let relay: RelayUnderTest;
  let rtmpPort: number;
  beforeAll(async () => {
    rtmpPort = await freePort();
    relay = await startRelay('  obs:\n  garage:\n', `rtmp:\n  listen: 127.0.0.1:${rtmpPort}\n`);
  }, 30_000);
  afterAll(() => relay.stop());

  it('takes an ffmpeg publish to rtmp://host/<stream> and plays it over RTSP and stream.mp4', async () => {
    publish(`rtmp://127.0.0.1:${rtmpPort}/obs`);
    await published(relay.api, 'obs');
    expect(await probe(relay.rtspUrl('obs'))).toEqual(EXPECTED);
    expect(await probe(`${relay.api}/api/stream.mp4?src=obs`)).toEqual(EXPECTED);
    const { producers } = (await (await fetch(`${relay.api}/api/streams?src=obs`)).json()) as {
      producers: Array<{ format_name?: string; protocol?: string; bytes_recv?: number }>;
    };
    expect(producers).toContainEqual(expect.objectContaining({ format_name: 'rtmp', protocol: 'rtmp' }));
  }, 40_000);

  it("takes OBS's form, server rtmp://host/live with the stream key as the name", async () => {
    publish(`rtmp://127.0.0.1:${rtmpPort}/live/garage`);
    await published(relay.api, 'garage');
    expect(await probe(relay.rtspUrl('garage'))).toEqual(EXPECTED);
  }, 40_000);

  it('refuses a publish to a stream that is not in the config, and ffmpeg says why', async () => {
    const refused = await run('ffmpeg', [...PATTERN.slice(0, -2), '-t', '3', '-f', 'flv', `rtmp://127.0.0.1:${rtmpPort}/live/nowhere`]);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('no stream live/nowhere in the config');
    const { names } = { names: Object.keys((await (await fetch(`${relay.api}/api/streams`)).json()) as object) };
    expect(names).not.toContain('nowhere');
  }, 20_000);
});

describe('rtmp:// sources', () => {
  it('plays a stream from an RTMP server (ffmpeg listening as one)', async () => {
    const port = await freePort();
    publish(`rtmp://127.0.0.1:${port}/live/cam`, ['-listen', '1']);
    await whenListening(port); // ffmpeg takes one connection: a test dial would be the one
    const relay = await startRelay(`  cam: rtmp://127.0.0.1:${port}/live/cam\n`);
    try {
      expect(await probe(relay.rtspUrl('cam'))).toEqual(EXPECTED);
    } finally {
      await relay.stop();
    }
  }, 40_000);

  it('says what a server answered when it refuses, or that nothing listens', async () => {
    // This relay's RTMP server takes publishers only: it refuses play with NetStream.Play.Failed.
    const rtmpPort = await freePort();
    const relay = await startRelay('  cam:\n', `rtmp:\n  listen: 127.0.0.1:${rtmpPort}\n`);
    try {
      await expect(dialRtmp(`rtmp://127.0.0.1:${rtmpPort}/live/cam`, AbortSignal.timeout(5000))).rejects.toThrow(
        `RTMP 127.0.0.1: NetStream.Play.Failed: this RTMP server takes publishers`,
      );
    } finally {
      await relay.stop();
    }
    const closed = await freePort();
    await expect(dialRtmp(`rtmp://127.0.0.1:${closed}/live/cam`, AbortSignal.timeout(5000))).rejects.toThrow(
      `RTMP 127.0.0.1:${closed}: connect ECONNREFUSED`,
    );
  });
});
