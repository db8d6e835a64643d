import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TransferStatus } from '@shared/contract/transfers';
import type { Result } from '@shared/contract/result';
import { startTestEngine, type TestEngine } from '../engine/test-engine';
import { startGstCamera, type GstCamera } from '../relay/protocols/rtsp/test-support/gst-camera';
import { relayModule } from '../relay/relay-module';
import { run } from '../relay/test/relay-test-kit';
import { createStorageClientModule } from '../storage/client/storage-client-module';
import { storageEmulatorModule } from '../storage/emulator/storage-emulator-module';
import { waitUntil } from '../test-support/time';
import { recordingsModule } from './recordings-module';

// A GStreamer camera (1280x720 H.264 at 15 fps, a keyframe a second) as two streams: `cam`
// recorded in 4 s segments into the emulator's bucket `rec`, `door` not recorded but watched
// (a stream.mp4 viewer keeps its source connected, so the relay holds its current GOP). Clips
// and snapshots go up through the transfer queue; ffprobe reads what lands in the bucket.

const AK = 'live-bucket-ak';
const SK = 'live-bucket-sk-secret';
/** The camera sends a keyframe every second. */
const GOP_SECONDS = 1;

let camera: GstCamera;
let running: TestEngine;
let emulator: string;
const viewer = new AbortController();

const call = async <T>(service: string, method: string, input: unknown): Promise<T> => {
  const result = (await running.engine.services.call(service, method, input)) as Result<T>;
  if (!result.ok) throw new Error(`${service}.${method}: ${result.error.code}: ${result.error.message}`);
  return result.value;
};
const failure = async (method: string, input: unknown) => {
  const result = await running.engine.services.call('recordings', method, input);
  return result.ok ? undefined : result.error;
};

/** Waits for a transfer to end; it must end done. */
async function finished(id: string): Promise<TransferStatus> {
  const transfer = await waitUntil(
    async () =>
      (await call<TransferStatus[]>('transfers', 'list', undefined)).find(
        (t) => t.id === id && ['done', 'failed', 'canceled'].includes(t.state),
      ),
    { timeout: 30_000, interval: 100, what: `transfer ${id} to end` },
  );
  expect(transfer).toMatchObject({ state: 'done', kind: 'upload' });
  return transfer;
}

async function probe(bucket: string, key: string) {
  const url = `${emulator}/download/${bucket}/${key.split('/').map(encodeURIComponent).join('/')}`;
  const out = await run('ffprobe', [
    '-v',
    'error',
    '-show_entries',
    'stream=codec_name,width,height:format=duration,format_name',
    '-of',
    'json',
    url,
  ]);
  expect(out.code, out.stderr).toBe(0);
  return JSON.parse(out.stdout) as {
    streams: Array<{ codec_name: string; width?: number; height?: number }>;
    format: { duration?: string; format_name: string };
  };
}

beforeAll(async () => {
  camera = await startGstCamera({ size: '1280x720' });
  running = await startTestEngine({
    modules: [relayModule, storageEmulatorModule, createStorageClientModule(), recordingsModule],
    config: [
      'data_dir: ./data',
      'api:\n  listen: 127.0.0.1:0',
      'rtsp:\n  listen: 127.0.0.1:0',
      'webrtc:\n  listen: 127.0.0.1:0',
      'log:\n  level: error',
      'storage:\n  emulator:\n    listen: 127.0.0.1:0\n    accounts:',
      `      - access_key: ${AK}\n        secret_key: ${SK}\n        buckets:\n          - name: rec\n            domains: [rec.test]\n          - name: clips\n            domains: [clips.test]`,
      `streams:\n  cam: ${camera.url}\n  door: ${camera.url}`,
      'recordings:\n  cam:\n    bucket: rec\n    segment: 4s\n    schedule: always',
      '',
    ].join('\n'),
  });
  emulator = running.engine.context.addresses.get('storage-emulator')!;
  const watching = await fetch(`${running.engine.url}/api/stream.mp4?src=door`, { signal: viewer.signal });
  void watching.body?.pipeTo(new WritableStream()).catch(() => undefined);
  // 12 s of `cam` in the bucket: a clip of the last 10 s has more than enough to come from.
  await waitUntil(
    async () => {
      const [status] = await call<Array<{ uploaded: number }>>('recordings', 'status', undefined);
      return (status?.uploaded ?? 0) >= 3;
    },
    { timeout: 60_000, interval: 250, what: 'three segments of cam in the bucket' },
  );
}, 90_000);

afterAll(async () => {
  viewer.abort();
  await running?.stop();
  await camera?.stop();
});

describe('live streams into a bucket', () => {
  it('clips the last 10 s of a recorded stream into its bucket: H.264 1280x720, 10 s within a GOP', async () => {
    const clip = await call<{ transferId: string; bucket: string; key: string; bytes: number; seconds: number }>(
      'recordings',
      'clipToBucket',
      {
        stream: 'cam',
        seconds: 10,
      },
    );
    expect(clip.bucket).toBe('rec');
    expect(clip.key).toMatch(/^recordings\/cam\/clips\/cam\/\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}\.\d{3}Z\.mp4$/);
    const transfer = await finished(clip.transferId);
    expect(transfer).toMatchObject({ bucket: 'rec', key: clip.key, size: clip.bytes, transferred: clip.bytes });
    const probed = await probe('rec', clip.key);
    // The recording's audio (the camera's G.711, kept as FLAC) comes along.
    expect(probed.streams).toEqual([
      expect.objectContaining({ codec_name: 'h264', width: 1280, height: 720 }),
      expect.objectContaining({ codec_name: 'flac' }),
    ]);
    const duration = Number(probed.format.duration);
    expect(duration).toBeGreaterThanOrEqual(10 - GOP_SECONDS);
    expect(duration).toBeLessThanOrEqual(10 + GOP_SECONDS);
    expect(Math.abs(duration - clip.seconds)).toBeLessThan(0.5);
    // One run of frames: ffmpeg decodes it to the end without an error.
    const decoded = await run(
      'ffmpeg',
      ['-v', 'error', '-i', `${emulator}/download/rec/${clip.key}`, '-map', '0:v', '-f', 'null', '-'],
      30_000,
    );
    expect(decoded.code).toBe(0);
    expect(decoded.stderr.trim()).toBe('');
  }, 60_000);

  it('puts a snapshot of the camera as a JPEG of its size under snapshots/', async () => {
    const shot = await call<{ transferId: string; key: string }>('recordings', 'snapshotToBucket', { stream: 'cam' });
    expect(shot.key).toMatch(/^recordings\/cam\/snapshots\/cam\/.+Z\.jpg$/);
    await finished(shot.transferId);
    const bytes = new Uint8Array(await (await fetch(`${emulator}/download/rec/${shot.key}`)).arrayBuffer());
    expect([...bytes.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
    const probed = await probe('rec', shot.key);
    expect(probed.streams[0]).toMatchObject({ codec_name: 'mjpeg', width: 1280, height: 720 });
  }, 60_000);

  it('clips what the relay holds of a stream that is not recorded, into the bucket the user chose', async () => {
    const buffer = await waitUntil(
      async () => {
        const b = await call<{ recording?: unknown; memorySeconds: number }>('recordings', 'liveBuffer', { stream: 'door' });
        return b.memorySeconds > 0 && b;
      },
      { timeout: 15_000, interval: 100, what: 'a GOP of door in memory' },
    );
    expect(buffer.recording).toBeUndefined();
    expect(buffer.memorySeconds).toBeLessThanOrEqual(GOP_SECONDS + 0.1);
    const clip = await call<{ transferId: string; key: string; seconds: number }>('recordings', 'clipToBucket', {
      stream: 'door',
      seconds: 30,
      bucket: 'clips',
    });
    expect(clip.key).toMatch(/^clips\/door\/.+Z\.mp4$/);
    expect(clip.seconds).toBeLessThanOrEqual(GOP_SECONDS + 0.1);
    await finished(clip.transferId);
    const probed = await probe('clips', clip.key);
    expect(probed.streams).toEqual([expect.objectContaining({ codec_name: 'h264', width: 1280, height: 720 })]);
  }, 60_000);

  it('says what is wrong: an unknown stream, a bucket that is not there, no bucket for a stream not recorded', async () => {
    expect(await failure('clipToBucket', { stream: 'nope', seconds: 10 })).toMatchObject({
      code: 'not_found',
      message: 'there is no stream nope',
    });
    expect(await failure('snapshotToBucket', { stream: 'door', bucket: 'gone' })).toMatchObject({
      code: 'not_found',
      message: 'there is no bucket gone in storage account local',
    });
    expect(await failure('clipToBucket', { stream: 'door', seconds: 10 })).toMatchObject({
      code: 'invalid_input',
      message: expect.stringContaining('choose the bucket'),
    });
    expect(await failure('clipToBucket', { stream: 'cam', seconds: 601 })).toMatchObject({ code: 'invalid_input' });
  });
});
