import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probe, publishTestPattern, run, startRelay, waitForMedia, type RelayUnderTest } from '../../test/relay-test-kit';

describe('echo: sources', () => {
  let camera: RelayUnderTest;
  let relay: RelayUnderTest;
  let publisher: ChildProcess;

  beforeAll(async () => {
    camera = await startRelay('  cam:\n');
    publisher = publishTestPattern(camera.rtspUrl('cam'));
    await waitForMedia(camera, 'cam');
    relay = await startRelay(
      [
        `  door: echo:printf '%s\\n' ${camera.rtspUrl('cam')}`,
        '  silent: echo:true',
        "  loop: echo:printf 'exec:ffmpeg'",
        '  failing: echo:false',
        '',
      ].join('\n'),
    );
  }, 30_000);
  afterAll(async () => {
    publisher?.kill('SIGKILL');
    await relay?.stop();
    await camera?.stop();
  });

  it('dials the URL the command prints', async () => {
    const streams = await probe(relay.rtspUrl('door'));
    expect(streams.find((s) => s.codec_type === 'video')).toMatchObject({ codec_name: 'h264', width: 320 });
  }, 30_000);

  it('says what went wrong with the command', async () => {
    const errors: Record<string, RegExp> = {
      silent: /printed nothing/,
      loop: /unsupported|may not run commands|does not support/,
      failing: /echo: false failed/,
    };
    await Promise.all(
      Object.entries(errors).map(async ([name, pattern]) => {
        const result = await run('ffprobe', ['-v', 'error', '-rtsp_transport', 'tcp', relay.rtspUrl(name)], 30_000);
        expect(result.code).not.toBe(0);
        const info = (await (await fetch(`${relay.api}/api/streams?src=${name}`)).json()) as { producers: Array<{ error?: string }> };
        expect(info.producers[0]!.error).toMatch(pattern);
      }),
    );
  }, 90_000);

  it('is refused through the API', async () => {
    const res = await fetch(`${relay.api}/api/streams?src=${encodeURIComponent('echo:printf x')}&name=x`, { method: 'PUT' });
    expect(res.status).toBe(400);
  });
});
