import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import type { ProcessingJob } from '@shared/contract/processing';
import type { TestEngine } from '@main/engine/test-engine';
import { put, startStorage } from '../../test-support';

type Result<T> = { ok: true; value: T } | { ok: false; error: { code: string; message: string } };

describe('persistent processing', () => {
  let running: TestEngine | undefined;
  afterEach(async () => running?.stop());

  it('runs a preset on a video, follows it to the end and saves the result where asked', async () => {
    const started = await startStorage();
    running = started.running;
    const video = join(running.dir, 'clip.mp4');
    await promisify(execFile)('ffmpeg', [
      '-v',
      'error',
      '-f',
      'lavfi',
      '-i',
      'testsrc=size=160x120:rate=10:duration=2',
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-pix_fmt',
      'yuv420p',
      '-y',
      video,
    ]);
    const clip = await readFile(video);
    await put(started.port, 'photos', ['clips/gate.mp4'], () => clip);
    const seen: ProcessingJob[] = [];
    const ended = new Promise<ProcessingJob>((resolve) =>
      running!.engine.services.subscribe('processing', 'onJob', (job) => {
        seen.push(job as ProcessingJob);
        if ((job as ProcessingJob).state === 'done' || (job as ProcessingJob).state === 'failed') resolve(job as ProcessingJob);
      }),
    );
    const reply = (await running.engine.services.call('processing', 'start', {
      accountId: 'local',
      bucket: 'photos',
      key: 'clips/gate.mp4',
      command: 'vframe/jpg/offset/1',
      saveAs: { bucket: 'photos', key: 'clips/gate-frame.jpg' },
    })) as Result<ProcessingJob>;
    expect(reply).toMatchObject({ ok: true, value: { state: 'waiting', command: 'vframe/jpg/offset/1' } });
    const done = await ended;
    expect(done).toMatchObject({ state: 'done', saveAs: { key: 'clips/gate-frame.jpg' } });
    const stat = (await running.engine.services.call('storage', 'statObject', {
      accountId: 'local',
      bucket: 'photos',
      key: 'clips/gate-frame.jpg',
    })) as Result<{ mimeType: string; size: number }>;
    expect(stat).toMatchObject({ ok: true, value: { mimeType: 'image/jpeg' } });
    expect((await running.engine.services.call('processing', 'list', undefined)) as Result<ProcessingJob[]>).toMatchObject({
      ok: true,
      value: [{ state: 'done' }],
    });
  });

  it('says why a command failed, and refuses commands that would write elsewhere', async () => {
    const started = await startStorage();
    running = started.running;
    await put(started.port, 'photos', ['notes.txt']);
    const ended = new Promise<ProcessingJob>((resolve) =>
      running!.engine.services.subscribe(
        'processing',
        'onJob',
        (job) => (job as ProcessingJob).state === 'failed' && resolve(job as ProcessingJob),
      ),
    );
    await running.engine.services.call('processing', 'start', {
      accountId: 'local',
      bucket: 'photos',
      key: 'notes.txt',
      command: 'vframe/jpg/offset/1',
      saveAs: { bucket: 'photos', key: 'x.jpg' },
    });
    expect((await ended).error).toBeTruthy();
    for (const command of ['avthumb/mp4|saveas/cGhvdG9zOmV2aWw=', 'avthumb/mp4/saveas/abc', 'two words']) {
      const refused = (await running.engine.services.call('processing', 'start', {
        accountId: 'local',
        bucket: 'photos',
        key: 'notes.txt',
        command,
        saveAs: { bucket: 'photos', key: 'y' },
      })) as Result<unknown>;
      expect(refused).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    }
  });
});
