import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probe, publishTestPattern, startRelay, waitForMedia, type RelayUnderTest } from '../../test/relay-test-kit';

describe('sending a stream to another RTSP server (POST /api/streams?src=&dst=)', () => {
  let source: RelayUnderTest;
  let target: RelayUnderTest;
  let publisher: ChildProcess;

  beforeAll(async () => {
    source = await startRelay('  cam:\n');
    target = await startRelay('  incoming:\n');
    publisher = publishTestPattern(source.rtspUrl('cam'));
    await waitForMedia(source, 'cam');
  }, 30_000);
  afterAll(async () => {
    publisher?.kill('SIGKILL');
    await source?.stop();
    await target?.stop();
  });

  it('publishes the stream to the destination URL', async () => {
    const res = await fetch(`${source.api}/api/streams?src=cam&dst=${encodeURIComponent(target.rtspUrl('incoming'))}`, { method: 'POST' });
    expect(res.status).toBe(200);
    const streams = await probe(target.rtspUrl('incoming'));
    expect(streams.map((s) => `${s.codec_type}:${s.codec_name}`)).toEqual(['video:h264', 'audio:aac']);
    const stack = await (await fetch(`${source.api}/api/stack`)).text();
    expect(stack).toContain(`push cam → ${target.rtspUrl('incoming')}`);
  }, 30_000);

  it('says why when the destination refuses or is not a URL', async () => {
    const missing = await fetch(`${source.api}/api/streams?src=cam&dst=${encodeURIComponent(target.rtspUrl('undeclared'))}`, {
      method: 'POST',
    });
    expect(missing.status).toBe(502);
    expect(await missing.text()).toMatch(/ANNOUNCE answered 404/);
    const notUrl = await fetch(`${source.api}/api/streams?src=cam&dst=ftp://x`, { method: 'POST' });
    expect(notUrl.status).toBe(400);
  }, 30_000);
});
