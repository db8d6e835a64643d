import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probe, publishTestPattern, startRelay, waitForMedia, type RelayUnderTest } from '../../test/relay-test-kit';

describe('RTSP credentials', () => {
  let camera: RelayUnderTest;
  let publisher: ChildProcess;
  const auth = '  username: viewer\n  password: "s3cret:pw"\n  local_auth: true\n';

  beforeAll(async () => {
    camera = await startRelay('  cam:\n', '', 0, auth);
    const url = (user: string) => camera.rtspUrl('cam').replace('rtsp://', `rtsp://${user}@`);
    publisher = publishTestPattern(url('viewer:s3cret%3Apw'));
    await waitForMedia(camera, 'cam', 15_000);
  }, 30_000);
  afterAll(async () => {
    publisher?.kill('SIGKILL');
    await camera?.stop();
  });

  it('refuses viewers without the right credentials and serves those with them (Digest)', async () => {
    const plain = camera.rtspUrl('cam');
    await expect(probe(plain)).rejects.toThrow(/401|Unauthorized/);
    await expect(probe(plain.replace('rtsp://', 'rtsp://viewer:wrong@'))).rejects.toThrow(/401|Unauthorized/);
    const streams = await probe(plain.replace('rtsp://', 'rtsp://viewer:s3cret%3Apw@'));
    expect(streams.find((s) => s.codec_type === 'video')).toMatchObject({ codec_name: 'h264' });
  }, 30_000);

  it('lets the relay pull a camera that asks for Digest credentials', async () => {
    const url = camera.rtspUrl('cam').replace('rtsp://', 'rtsp://viewer:s3cret%3Apw@');
    const relay = await startRelay(`  door: ${url}\n`);
    try {
      const streams = await probe(relay.rtspUrl('door'));
      expect(streams.find((s) => s.codec_type === 'video')).toMatchObject({ codec_name: 'h264', width: 320 });
      // Shown masked to anyone who may not read secrets (here a page of another site).
      const listed = (await (await fetch(`${relay.api}/api/streams?src=door`, { headers: { Origin: 'https://dash.example' } })).json()) as {
        producers: Array<{ url: string }>;
      };
      expect(listed.producers[0]!.url).not.toContain('s3cret');
    } finally {
      await relay.stop();
    }
  }, 30_000);
});
