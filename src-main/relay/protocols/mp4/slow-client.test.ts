import { createServer, get as httpGet, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMemoryLogger } from '@main/platform/logger';
import { createRouter } from '@main/platform/http/router';
import { createSchemeRegistry } from '../../core/scheme-registry';
import { createStreamRegistry } from '../../core/stream-registry';
import { createTaskRegistry } from '../../core/task-registry';
import { toAvcc } from '../../media/codecs/h264/nal';
import { h264Codec } from '../../media/frames/codec-description';
import { createFrameProducer } from '../../media/frames/frame-producer';
import { readFragments } from '../../media/containers/fmp4/box-reader';
import { SYNC_SAMPLE } from '../../media/containers/fmp4/fragment';
import { serveStreamMp4 } from './stream-mp4';

// An SPS and PPS of libx264 (640x360, High profile); slices are filler of the right NAL type.
const sps = Buffer.from('Z2QAHqzZQKAv+WEAAAMAAQAAAwAyDxYtlg==', 'base64');
const pps = Buffer.from('aOvjyyLA', 'base64');
const slice = (type: number) => {
  const unit = new Uint8Array(64 * 1024).fill(0xab);
  unit[0] = type;
  return unit;
};

describe('stream.mp4 with a client that does not read', () => {
  let server: Server | undefined;
  afterEach(() => server?.close());

  it('drops frames up to the next keyframe instead of buffering them without end', async () => {
    const logger = createMemoryLogger('error');
    const tasks = createTaskRegistry();
    const streams = createStreamRegistry({ schemes: createSchemeRegistry(), logger, tasks });
    const producer = createFrameProducer({ tracks: [{ kind: 'video', codec: h264Codec(sps, pps) }], label: { format_name: 'test' } });
    streams.set('cam', []).addPushed('test://cam', producer.connection);
    const router = createRouter(logger);
    const maxBufferedBytes = 256 * 1024;
    router.add([
      {
        method: 'GET',
        path: '/api/stream.mp4',
        handler: (request) => serveStreamMp4({ streams, tasks, callersAuthenticated: false, logger, maxBufferedBytes }, request),
      },
    ]);
    server = createServer((req, res) => void router.handle(req, res));
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;

    const response = await new Promise<IncomingMessage>((resolve) => {
      producer.push(0, { codec: 'H264', timestamp: 0, keyframe: true, data: toAvcc([sps, pps, slice(0x65)]) });
      httpGet(`http://127.0.0.1:${port}/api/stream.mp4?src=cam&video`, resolve);
    });
    response.pause();
    // 30 MB of frames while nobody reads: far more than the socket buffers hold.
    let pushed = 0;
    for (let i = 1; i <= 480; i++) {
      producer.push(0, {
        codec: 'H264',
        timestamp: i * 3600,
        keyframe: i % 50 === 0,
        data: toAvcc(i % 50 === 0 ? [sps, pps, slice(0x65)] : [slice(0x41)]),
      });
      pushed += 64 * 1024;
      await new Promise((resolve) => setImmediate(resolve));
    }
    const stats = streams.get('cam')!.info().consumers[0] as { bytes_send: number };
    expect(stats.bytes_send).toBeLessThan(pushed / 2);

    const chunks: Buffer[] = [];
    response.on('data', (chunk: Buffer) => chunks.push(chunk));
    response.resume();
    /** The viewer has read all the relay wrote to it: nothing waits in the socket buffers. */
    const caughtUp = () =>
      vi.waitFor(
        () =>
          expect(chunks.reduce((n, c) => n + c.length, 0)).toBe(
            (streams.get('cam')!.info().consumers[0] as { bytes_send: number }).bytes_send,
          ),
        { interval: 2 },
      );
    await caughtUp();
    // Reading again: the viewer gets frames from the next keyframe on.
    for (let i = 481; i <= 560; i++) {
      producer.push(0, {
        codec: 'H264',
        timestamp: i * 3600,
        keyframe: i % 50 === 0,
        data: toAvcc(i % 50 === 0 ? [sps, pps, slice(0x65)] : [slice(0x41)]),
      });
      await caughtUp();
    }
    streams.close(); // ends the reply
    await new Promise((resolve) => response.on('end', resolve));
    const fragments = readFragments(Buffer.concat(chunks)).map((f) => f.tracks[0]!);
    expect(fragments.length).toBeGreaterThan(1);
    // After every gap the viewer resumes at a keyframe, so the picture never breaks.
    const gaps = fragments.filter((f, i) => i > 0 && f.baseTime - fragments[i - 1]!.baseTime > 3600);
    expect(gaps.length).toBeGreaterThan(0);
    for (const fragment of gaps) expect(fragment.samples[0]!.flags).toBe(SYNC_SAMPLE);
    producer.end();
    expect(tasks.count('consumer')).toBe(0);
  }, 30_000);
});
