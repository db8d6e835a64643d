import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { encodeClip } from '../../media/containers/test-media';
import { countFrames, probe, run, startRelay, waitFor, waitForMedia, type RelayUnderTest } from '../../test/relay-test-kit';

let relay: RelayUnderTest | undefined;
afterEach(async () => {
  await relay?.stop();
  relay = undefined;
});

/** ffmpeg pushing a live test pattern (H.264 + AAC) to an ingest URL, as OBS or a camera would. */
function pushWithFfmpeg(format: 'flv' | 'mpegts', url: string, seconds: number) {
  return spawn(
    'ffmpeg',
    [
      '-hide_banner',
      '-loglevel',
      'error',
      '-re',
      '-f',
      'lavfi',
      '-i',
      `testsrc=size=320x240:rate=25:duration=${seconds}`,
      '-f',
      'lavfi',
      '-i',
      `sine=frequency=440:sample_rate=44100:duration=${seconds}`,
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
      '-f',
      format,
      '-method',
      'POST',
      url,
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
}

const stack = async () => (await fetch(`${relay!.api}/api/stack`)).text();

/** POSTs `body` and returns the status and text of the answer. */
async function post(path: string, body: Uint8Array) {
  const answer = await fetch(`${relay!.api}${path}`, { method: 'POST', body: Uint8Array.from(body) });
  return { status: answer.status, text: await answer.text() };
}

describe('ingest: POST /api/stream.flv and /api/stream.ts', () => {
  for (const format of ['flv', 'mpegts'] as const) {
    it(`makes a pushed ${format} stream the producer of dst while the upload lasts`, async () => {
      relay = await startRelay('  pushed:\n');
      const path = format === 'flv' ? 'stream.flv' : 'stream.ts';
      const ffmpeg = pushWithFfmpeg(format, `${relay.api}/api/${path}?dst=pushed`, 12);
      try {
        await waitForMedia(relay, 'pushed', 15_000);
        const streams = await probe(relay.rtspUrl('pushed'));
        expect(streams.map((s) => s.codec_name).sort()).toEqual(['aac', 'h264']);
        expect(streams.find((s) => s.codec_type === 'video')).toMatchObject({ width: 320, height: 240 });
        const frames = await countFrames(relay.rtspUrl('pushed'), 3);
        expect(frames).toBeGreaterThan(55);
        expect(frames).toBeLessThan(95);
        const info = (await (await fetch(`${relay.api}/api/streams?src=pushed`)).json()) as { producers: Array<{ format_name?: string }> };
        expect(info.producers[0]?.format_name).toBe(format);
      } finally {
        ffmpeg.kill('SIGKILL');
      }
      // The upload is cut off: its producer and socket go with it.
      await waitFor(async () => ((await stack()).includes('upload from') ? undefined : true));
      const info = (await (await fetch(`${relay.api}/api/streams?src=pushed`)).json()) as { producers: unknown[] };
      expect(info.producers).toEqual([]);
    }, 60_000);
  }

  it('takes a pushed MJPEG (ffmpeg -f mpjpeg) and serves it back as MJPEG without transcoding', async () => {
    relay = await startRelay('  pushed:\n');
    const ffmpeg = spawn(
      'ffmpeg',
      [
        '-hide_banner',
        '-loglevel',
        'error',
        '-re',
        '-f',
        'lavfi',
        '-i',
        'testsrc=size=320x240:rate=10:duration=20',
        '-c:v',
        'mjpeg',
        '-pix_fmt',
        'yuvj420p',
        '-q:v',
        '5',
        '-f',
        'mpjpeg',
        '-method',
        'POST',
        `${relay.api}/api/stream.mjpeg?dst=pushed`,
      ],
      { stdio: 'ignore' },
    );
    try {
      await waitForMedia(relay, 'pushed', 15_000);
      const streams = await probe(relay.rtspUrl('pushed'));
      expect(streams).toEqual([expect.objectContaining({ codec_name: 'mjpeg', width: 320, height: 240 })]);
      const frames = await countFrames(relay.rtspUrl('pushed'), 2);
      expect(frames).toBeGreaterThan(12);
    } finally {
      ffmpeg.kill('SIGKILL');
    }
  }, 60_000);

  it('lets /api/stream.mp4?src= read back what ffmpeg pushes as FLV', async () => {
    relay = await startRelay('  pushed:\n');
    const ffmpeg = pushWithFfmpeg('flv', `${relay.api}/api/stream.flv?dst=pushed`, 15);
    try {
      await waitForMedia(relay, 'pushed', 15_000);
      const mp4 = await run(
        'ffprobe',
        [
          '-v',
          'error',
          '-count_frames',
          '-show_entries',
          'stream=codec_name,width,height,nb_read_frames',
          '-of',
          'json',
          `${relay.api}/api/stream.mp4?src=pushed&duration=2`,
        ],
        30_000,
      );
      const streams = (JSON.parse(mp4.stdout) as { streams: Array<{ codec_name: string; width?: number; nb_read_frames?: string }> })
        .streams;
      expect(streams.map((s) => s.codec_name).sort()).toEqual(['aac', 'h264']);
      const video = streams.find((s) => s.codec_name === 'h264')!;
      expect(video.width).toBe(320);
      expect(Number(video.nb_read_frames)).toBeGreaterThan(40);
    } finally {
      ffmpeg.kill('SIGKILL');
    }
  }, 60_000);

  it('answers 404 for an unknown dst and 400 without one', async () => {
    relay = await startRelay('  pushed:\n');
    expect(await post('/api/stream.flv?dst=nope', Buffer.from('FLV'))).toMatchObject({ status: 404, text: 'stream not found: nope\n' });
    expect((await post('/api/stream.ts', Buffer.from('x'))).status).toBe(400);
    // GET is the FLV output (it needs src); other methods are refused.
    expect((await fetch(`${relay.api}/api/stream.flv?dst=pushed`)).status).toBe(400);
    expect((await fetch(`${relay.api}/api/stream.flv?dst=pushed`, { method: 'DELETE' })).status).toBe(405);
  });

  it('answers 400 naming the problem for garbage, wrong-format and truncated bodies, and keeps nothing of them', async () => {
    relay = await startRelay('  pushed:\n');
    const ts = await encodeClip('mpegts', 1);
    const flv = await encodeClip('flv', 1);
    expect(await post('/api/stream.flv?dst=pushed', Buffer.from('hello, not a video'))).toMatchObject({
      status: 400,
      text: expect.stringContaining('not FLV'),
    });
    expect(await post('/api/stream.flv?dst=pushed', ts)).toMatchObject({ status: 400, text: expect.stringContaining('not FLV') });
    expect(await post('/api/stream.ts?dst=pushed', flv)).toMatchObject({
      status: 400,
      text: expect.stringContaining('lost sync at byte 0'),
    });
    expect(await post('/api/stream.ts?dst=pushed', ts.subarray(0, 100))).toMatchObject({
      status: 400,
      text: expect.stringContaining('no program table'),
    });
    expect(await post('/api/stream.flv?dst=pushed', flv.subarray(0, 5))).toMatchObject({
      status: 400,
      text: expect.stringContaining('ended before the FLV header'),
    });
    expect(await post('/api/stream.mjpeg?dst=pushed', flv)).toMatchObject({
      status: 400,
      text: expect.stringContaining('neither multipart MJPEG nor JPEG'),
    });
    // A whole short clip is a fine upload: 200 once it has been played in.
    expect((await post('/api/stream.ts?dst=pushed', ts)).status).toBe(200);
    const info = (await (await fetch(`${relay.api}/api/streams?src=pushed`)).json()) as { producers: unknown[] };
    expect(info.producers).toEqual([]);
    expect(await stack()).not.toContain('upload from');
  });

  it('releases everything when the client disconnects mid-upload', async () => {
    relay = await startRelay('  pushed:\n');
    const flv = await encodeClip('flv', 2);
    const url = new URL(`${relay.api}/api/stream.flv?dst=pushed`);
    const upload = request({ host: url.hostname, port: url.port, path: url.pathname + url.search, method: 'POST' });
    upload.on('error', () => undefined);
    upload.write(flv.subarray(0, flv.length / 2));
    await waitForMedia(relay, 'pushed');
    expect(await stack()).toContain('flv upload from');
    upload.destroy();
    await waitFor(async () => ((await stack()).includes('upload from') ? undefined : true));
    const info = (await (await fetch(`${relay.api}/api/streams?src=pushed`)).json()) as { producers: unknown[] };
    expect(info.producers).toEqual([]);
  });
});
