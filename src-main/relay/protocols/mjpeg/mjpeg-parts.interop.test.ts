import { execFileSync } from 'node:child_process';
import { createServer } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { h265Codec } from '../../media/frames/codec-description';
import { splitAnnexB, toAvcc } from '../../media/codecs/h264/nal';
import { h265NalType } from '../../media/codecs/h265/rtp-h265';
import { createTaskRegistry } from '../../core/task-registry';
import type { MediaFrame } from '../../core/media';
import { waitFor } from '../../test/relay-test-kit';
import { createJpegSplitter } from './jpeg-splitter';
import { createMultipartWriter } from './multipart-writer';
import { createSnapshotCache } from './snapshot-cache';
import { createSnapshotDecoders } from './snapshot-decoders';
import { parseDuration, parseSnapshotParams } from './snapshot-params';

describe('JPEG splitter', () => {
  const pictures = [0, 1, 2].map((i) =>
    execFileSync('ffmpeg', [
      '-v',
      'error',
      '-f',
      'lavfi',
      '-i',
      `testsrc=size=64x48:rate=25`,
      '-vf',
      `select=eq(n\\,${i})`,
      '-frames:v',
      '1',
      '-c:v',
      'mjpeg',
      '-pix_fmt',
      'yuvj420p',
      '-f',
      'mjpeg',
      '-',
    ]),
  );

  it('cuts a byte stream into its pictures, whatever the chunk sizes', () => {
    const stream = Buffer.concat([Buffer.from('junk'), ...pictures]);
    for (const chunkSize of [1, 7, 4096]) {
      const out: Uint8Array[] = [];
      const splitter = createJpegSplitter((jpeg) => out.push(jpeg));
      for (let i = 0; i < stream.length; i += chunkSize) splitter.push(stream.subarray(i, i + chunkSize));
      expect(out.map((p) => Buffer.from(p))).toEqual(pictures);
    }
  });

  it('is not fooled by FF D9 inside a segment (an EXIF thumbnail)', () => {
    const withExif = Buffer.concat([
      pictures[0]!.subarray(0, 2),
      Buffer.from([0xff, 0xe1, 0x00, 0x08, 0x45, 0x78, 0xff, 0xd9, 0x00, 0x00]),
      pictures[0]!.subarray(2),
    ]);
    const out: Uint8Array[] = [];
    createJpegSplitter((jpeg) => out.push(jpeg)).push(Buffer.concat([withExif, pictures[1]!]));
    expect(out.map((p) => Buffer.from(p))).toEqual([withExif, pictures[1]]);
  });
});

describe('multipart writer', () => {
  it('skips pictures for a client that does not read, instead of buffering them', async () => {
    const picture = new Uint8Array(512 * 1024).fill(7);
    let result: { skipped: number; sent: number; backlog: number } | undefined;
    const server = createServer((_req, res) => {
      const writer = createMultipartWriter(res);
      writer.start();
      for (let i = 0; i < 60; i++) writer.write(picture); // 30 MiB offered at once
      result = { ...writer.stats, backlog: res.writableLength };
      res.destroy();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const client = connect((server.address() as AddressInfo).port, '127.0.0.1', () => client.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n'));
    client.pause(); // never reads
    client.on('error', () => undefined);
    try {
      const stats = await waitFor(() => result);
      expect(stats.skipped).toBeGreaterThan(30);
      expect(stats.backlog).toBeLessThanOrEqual(3 * picture.length); // what waits in the relay: bounded
    } finally {
      client.destroy();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('snapshot parameters', () => {
  it('reads width|w, height|h, rotate and cache', () => {
    expect(parseSnapshotParams(new URLSearchParams('w=160&height=90&rotate=270&cache=1m30s'))).toEqual({
      width: 160,
      height: 90,
      rotate: 270,
      cacheMs: 90_000,
    });
    expect(parseSnapshotParams(new URLSearchParams('rotate=-90'))).toMatchObject({ rotate: 270, cacheMs: 0 });
    expect([parseDuration('500ms'), parseDuration('5s'), parseDuration('2'), parseDuration('1h')]).toEqual([500, 5000, 2000, 3_600_000]);
  });

  it('refuses bad values with a 400 that names them', () => {
    expect(() => parseSnapshotParams(new URLSearchParams('width=0'))).toThrow(/width=0 must be a whole number of pixels/);
    expect(() => parseSnapshotParams(new URLSearchParams('h=1.5'))).toThrow(/h=1.5/);
    expect(() => parseSnapshotParams(new URLSearchParams('rotate=45'))).toThrow(/rotate=45 must be 90, 180 or 270/);
    expect(() => parseDuration('5 s')).toThrow(/cache=5 s must be a duration/);
    expect(() => parseDuration('2d')).toThrow(/must be a duration/);
    expect(() => parseDuration('48h')).toThrow(/must be a duration/);
  });

  it('keeps a bounded number of snapshots and serves them only while young enough', () => {
    const cache = createSnapshotCache(2);
    const live = { source: { connection: 1 }, connection: 1 };
    cache.set('a', Uint8Array.of(1), live);
    cache.set('b', Uint8Array.of(2), live);
    cache.set('c', Uint8Array.of(3), live);
    expect(cache.get('a', 60_000)).toBeUndefined();
    expect(cache.get('c', 60_000)).toEqual(Uint8Array.of(3));
    expect(cache.get('c', -1)).toBeUndefined();
  });

  it('serves a snapshot only while the source connection it came from is up', () => {
    const cache = createSnapshotCache();
    const source: { connection: number | undefined } = { connection: 1 };
    cache.set('door', Uint8Array.of(1), { source, connection: 1 });
    expect(cache.get('door', 60_000)).toEqual(Uint8Array.of(1));
    source.connection = undefined; // the stream went idle
    expect(cache.get('door', 60_000)).toBeUndefined();
    source.connection = 2; // and the camera came back: maybe at another size
    expect(cache.get('door', 60_000)).toBeUndefined();
  });
});

describe('snapshot decoder', () => {
  /** One H.265 keyframe as an RTSP camera sends it: the picture's NAL units, the parameter sets only in the SDP. */
  function hevcKeyframe(x265Params: string) {
    const hevc = execFileSync('ffmpeg', [
      '-v',
      'error',
      '-f',
      'lavfi',
      '-i',
      'testsrc=size=320x240:rate=25',
      '-frames:v',
      '1',
      '-c:v',
      'libx265',
      '-x265-params',
      `log-level=error${x265Params}`,
      '-pix_fmt',
      'yuv420p',
      '-f',
      'hevc',
      '-',
    ]);
    const units = splitAnnexB(hevc);
    const [vps, sps, pps] = [32, 33, 34].map((type) => units.find((u) => h265NalType(u) === type)!);
    const keyframe: MediaFrame = { codec: 'H265', timestamp: 0, keyframe: true, data: toAvcc(units.filter((u) => h265NalType(u) < 32)) };
    return { codec: h265Codec(vps!, sps!, pps!), keyframe };
  }

  async function decodeTwice(x265Params: string, expectWarm: boolean) {
    const { codec, keyframe } = hevcKeyframe(x265Params);
    const tasks = createTaskRegistry();
    const decoders = createSnapshotDecoders({ tasks, idleMs: 60_000, warmWaitMs: 1_500 });
    try {
      const first = await decoders.decode('cam', codec, keyframe);
      expect(await sharp(first).metadata()).toMatchObject({ format: 'jpeg', width: 320, height: 240 });
      const started = performance.now();
      const again = await decoders.decode('cam', codec, { ...keyframe, timestamp: 3600 });
      const ms = performance.now() - started;
      expect((await sharp(again).metadata()).width).toBe(320);
      expect(tasks.count('child')).toBe(expectWarm ? 1 : 0); // a warm ffmpeg stays; one-per-picture ones are gone
      return ms;
    } finally {
      decoders.close();
      await waitFor(() => (tasks.count('child') === 0 ? true : undefined)); // every child has exited
    }
  }

  it('decodes H.265 keyframes whose parameter sets are only in the SDP with one warm ffmpeg', async () => {
    const ms = await decodeTwice(':bframes=0', true);
    console.log(`warm H.265 snapshot decode: ${ms.toFixed(1)} ms`);
    expect(ms).toBeLessThan(1_000);
  });

  it('still decodes a stream whose decoder holds pictures back for B-frames (one ffmpeg per picture)', async () => {
    const ms = await decodeTwice('', false);
    console.log(`H.265 with B-frames, one ffmpeg per picture: ${ms.toFixed(1)} ms`);
  });
});
