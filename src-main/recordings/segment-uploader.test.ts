import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMemoryLogger } from '../platform/logger';
import { createKodoClient } from '../storage/client/kodo-client';
import { AK, SK, startTestEmulator, type TestEmulator } from '../storage/emulator/test-support';
import { freePort } from '../test-support/free-port';
import { createSegmentUploader, type SegmentUploader } from './segment-uploader';
import { openSpool, type Spool, type UploadTarget } from './spool';

// The uploader against the storage emulator in this process, through the storage client's SDK
// client: order, metadata, a bucket that is away, a full spool.

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const target = (key: string): UploadTarget => ({
  stream: 'cam',
  account: 'local',
  bucket: 'pub',
  key,
  metadata: { 'x-qn-meta-start': '2026-11-27T08:00:00.000Z', 'x-qn-meta-end': '2026-11-27T08:00:04.000Z', 'x-qn-meta-duration': '4000' },
  startMs: 0,
  endMs: 4000,
  durationMs: 4000,
  codecs: 'avc1.42C01F',
  initId: 'i',
});

async function spoolWith(keys: string[], size = 1000): Promise<Spool> {
  const dir = await mkdtemp(join(tmpdir(), 'uploader-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  const spool = await openSpool(join(dir, 'spool'));
  for (const key of keys) {
    const file = spool.begin('cam');
    file.write(Buffer.alloc(size, key));
    await file.finish(target(key));
  }
  return spool;
}

function uploaderFor(spool: Spool, host: string, uploaded: string[]): SegmentUploader {
  const client = createKodoClient({ accessKey: AK, secretKey: SK }, { host });
  const uploader = createSegmentUploader({
    spool,
    clientFor: async () => client,
    prepare: async () => undefined,
    resumeDir: join(spool.dir, '..', 'resume'),
    onUploaded: (entry) => uploaded.push(entry.target.key),
    onChange: () => undefined,
    logger: createMemoryLogger('error'),
  });
  cleanups.push(() => uploader.close());
  return uploader;
}

describe('segment uploader', () => {
  it("uploads a stream's segments oldest first with their metadata, and empties the spool", async () => {
    const emulator: TestEmulator = await startTestEmulator();
    cleanups.push(() => emulator.close());
    const spool = await spoolWith(['rec/a.mp4', 'rec/b.mp4', 'rec/c.mp4']);
    const uploaded: string[] = [];
    const uploader = uploaderFor(spool, emulator.host, uploaded);
    uploader.kick('cam');
    await vi.waitFor(() => expect(uploaded).toEqual(['rec/a.mp4', 'rec/b.mp4', 'rec/c.mp4']), { timeout: 10_000, interval: 20 });
    expect(spool.entries('cam')).toEqual([]);
    expect(uploader.state('cam')).toEqual({ spooled: 0, spooledBytes: 0, uploaded: 3, dropped: 0 });
    const stat = await createKodoClient({ accessKey: AK, secretKey: SK }, { host: emulator.host }).stat('pub', 'rec/b.mp4');
    expect(stat).toMatchObject({
      size: 1000,
      mimeType: 'video/mp4',
      metadata: { start: '2026-11-27T08:00:00.000Z', end: '2026-11-27T08:00:04.000Z', duration: '4000' },
    });
  });

  it('keeps segments while the bucket is away, says why, drops the oldest beyond the limit, and goes on when it is back', async () => {
    const port = await freePort();
    const spool = await spoolWith(['rec/1.mp4', 'rec/2.mp4', 'rec/3.mp4', 'rec/4.mp4']);
    const uploaded: string[] = [];
    const uploader = uploaderFor(spool, `127.0.0.1:${port}`, uploaded);
    uploader.kick('cam');
    await vi.waitFor(() => expect(uploader.state('cam').error).toMatch(/could not be reached: nothing answers at 127\.0\.0\.1/), {
      timeout: 10_000,
      interval: 20,
    });
    expect(uploader.state('cam')).toMatchObject({ spooled: 4, spooledBytes: 4000, failingSince: expect.any(Number) });
    // Over its limit: the oldest go, but never the one being tried.
    await uploader.trim('cam', 2500);
    const left = spool.entries('cam').map((e) => e.target.key);
    expect(left).toHaveLength(2);
    expect(left).toContain('rec/4.mp4');
    expect(uploader.state('cam').dropped).toBe(2);

    const emulator = await startTestEmulator({ port });
    cleanups.push(() => emulator.close());
    await uploader.drain(10_000);
    expect(uploaded).toEqual(left);
    expect(uploader.state('cam')).toMatchObject({ spooled: 0, uploaded: 2, dropped: 2 });
    expect(uploader.state('cam').error).toBeUndefined();
  }, 20_000);
});
