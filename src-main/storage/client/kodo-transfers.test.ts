import { randomBytes } from 'node:crypto';
import { cpSync } from 'node:fs';
import { cp, mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import qiniu from 'qiniu';
import { afterEach, describe, expect, it } from 'vitest';
import { kodoEtag } from '../kodo-etag';
import { sdk, startStorage, type RunningStorage } from '../test-support';
import { createBodyBuffers } from './body-buffers';
import { PART_SIZE, uploadFile, type UploadJob } from './kodo-transfers';

const MiB = 1024 * 1024;

/**
 * A resumable upload whose record outlived it: the upload completed on the service, but the
 * process was killed before it forgot the record (or noted the transfer done), so the next
 * start resumes an upload id the service no longer has (612).
 */
async function completedWithStaleRecord(started: RunningStorage, key: string) {
  const { mac, config } = sdk(started.port);
  const dir = join(started.running.dir, 'stale');
  const resumeDir = join(dir, 'resume');
  await mkdir(resumeDir, { recursive: true });
  const filePath = join(dir, 'big.bin');
  const bytes = randomBytes(9 * MiB);
  await writeFile(filePath, bytes);
  let kept = false;
  const job: UploadJob = {
    bucket: 'photos',
    key,
    filePath,
    size: bytes.length,
    overwrite: true,
    resumeDir,
    resumeKey: 'transfer-1',
    signal: new AbortController().signal,
    onProgress: () => undefined,
  };
  // The record as it was after the first part, put back once the upload has ended.
  const first = await uploadFile(
    mac,
    config,
    'local',
    {
      ...job,
      onProgress: () => {
        if (!kept) cpSync(resumeDir, `${resumeDir}.kept`, { recursive: true });
        kept = true;
      },
    },
    createBodyBuffers(PART_SIZE),
  );
  expect(first.hash).toBe(kodoEtag(bytes));
  await rm(resumeDir, { recursive: true, force: true });
  await cp(`${resumeDir}.kept`, resumeDir, { recursive: true });
  return { mac, config, job, bytes };
}

describe('uploadFile with a record of an upload that already ended', () => {
  let started: RunningStorage | undefined;
  afterEach(async () => started?.running.stop());

  it('answers the stored object when it holds the same bytes, without sending them again', async () => {
    started = await startStorage();
    const { mac, config, job, bytes } = await completedWithStaleRecord(started, 'ended.bin');
    let sent = 0;
    const again = await uploadFile(mac, config, 'local', { ...job, onProgress: (n) => (sent = n) }, createBodyBuffers(PART_SIZE));
    expect(again).toMatchObject({ hash: kodoEtag(bytes), size: bytes.length });
    expect(sent, 'no part went up again').toBe(0);
  });

  it('starts afresh when the object is gone', async () => {
    started = await startStorage();
    const { mac, config, job, bytes } = await completedWithStaleRecord(started, 'gone.bin');
    const bucket = new qiniu.rs.BucketManager(mac, config);
    expect(((await bucket.delete('photos', 'gone.bin')) as { resp: { statusCode: number } }).resp.statusCode).toBe(200);
    const again = await uploadFile(mac, config, 'local', job, createBodyBuffers(PART_SIZE));
    expect(again.hash).toBe(kodoEtag(bytes));
    const { data } = (await bucket.stat('photos', 'gone.bin')) as { data: { hash: string; fsize: number } };
    expect(data).toMatchObject({ hash: kodoEtag(bytes), fsize: bytes.length });
  });
});
