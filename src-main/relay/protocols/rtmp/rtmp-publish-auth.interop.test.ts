import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '@main/test-support/free-port';
import { run, startRelay, type RelayUnderTest } from '../../test/relay-test-kit';
import { waitUntil } from '@main/test-support/time';

// RTMP publishers log in with the RTSP server's login (rtsp.username/password), and only
// streams without configured sources take them unless rtmp.allow_publish_over_sources says so.

const PATTERN = [
  '-hide_banner',
  '-loglevel',
  'error',
  '-re',
  '-f',
  'lavfi',
  '-i',
  'testsrc=size=160x120:rate=10',
  '-c:v',
  'libx264',
  '-preset',
  'ultrafast',
  '-g',
  '10',
  '-pix_fmt',
  'yuv420p',
];
const LOGIN = '  username: pub\n  password: "s3cret&pw"\n  local_auth: true\n';
const GOOD = 'user=pub&pass=s3cret%26pw';
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

const publish = (url: string) => {
  const child = spawn('ffmpeg', [...PATTERN, '-t', '20', '-f', 'flv', url], { stdio: 'ignore' });
  children.push(child);
  return child;
};
/** An ffmpeg publish the server refuses: its exit code and what it printed. */
const refused = (url: string) => run('ffmpeg', [...PATTERN, '-t', '3', '-f', 'flv', url]);

const rtmpProducers = async (api: string, stream: string) => {
  const info = (await (await fetch(`${api}/api/streams?src=${stream}`)).json()) as { producers?: Array<{ format_name?: string }> };
  return (info.producers ?? []).filter((p) => p.format_name === 'rtmp');
};
async function published(api: string, stream: string): Promise<void> {
  await waitUntil(async () => (await rtmpProducers(api, stream)).length > 0, {
    timeout: 10_000,
    interval: 100,
    what: `${stream} to be published`,
  });
}

describe('RTMP publishing with rtsp.username set', () => {
  let relay: RelayUnderTest;
  let url: (path: string) => string;
  beforeAll(async () => {
    const port = await freePort();
    url = (path) => `rtmp://127.0.0.1:${port}/${path}`;
    relay = await startRelay('  garage:\n  obs:\n  cam: rtsp://127.0.0.1:9/camera\n', `rtmp:\n  listen: 127.0.0.1:${port}\n`, 0, LOGIN);
  }, 30_000);
  afterAll(() => relay.stop());

  it('refuses a publish without the login: ffmpeg prints why and exits non-zero, the stream gets no publisher', async () => {
    const result = await refused(url('live/garage'));
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('publishing needs the login of rtsp.username: add ?user=<user>&pass=<password>');
    expect(await rtmpProducers(relay.api, 'garage')).toEqual([]);
  }, 20_000);

  it('refuses user:pass@ in the URL (ffmpeg sends it nowhere) and a wrong password in the stream key or the app', async () => {
    const inUserinfo = await refused(url('live/garage').replace('rtmp://', 'rtmp://pub:s3cret%26pw@'));
    expect(inUserinfo.code).not.toBe(0);
    expect(inUserinfo.stderr).toContain('publishing needs the login of rtsp.username');
    const wrongKey = await refused(url('live/garage?user=pub&pass=s3cret'));
    expect(wrongKey.code).not.toBe(0);
    expect(wrongKey.stderr).toContain('wrong user or pass for publishing');
    // In the app, the login is checked at connect: NetConnection.Connect.Rejected.
    const wrongApp = await refused(url('garage?user=pub&pass=wrong'));
    expect(wrongApp.code).not.toBe(0);
    expect(wrongApp.stderr).toContain('wrong user or pass for publishing');
    expect(await rtmpProducers(relay.api, 'garage')).toEqual([]);
  }, 40_000);

  it('takes the login in the stream key (OBS key garage?user=..&pass=..) and in the app (rtmp://host/obs?user=..&pass=..)', async () => {
    publish(url(`live/garage?${GOOD}`));
    await published(relay.api, 'garage');
    publish(url(`obs?${GOOD}`));
    await published(relay.api, 'obs');
  }, 30_000);

  it('refuses a publish into a stream that has sources in the config, even with the login', async () => {
    const result = await refused(url(`live/cam?${GOOD}`));
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('stream cam has sources in the config');
    expect(await rtmpProducers(relay.api, 'cam')).toEqual([]);
  }, 20_000);
});

describe('rtmp.allow_publish_over_sources', () => {
  it('lets a publisher into a stream with configured sources when true', async () => {
    const port = await freePort();
    const relay = await startRelay(
      '  cam: rtsp://127.0.0.1:9/camera\n',
      `rtmp:\n  listen: 127.0.0.1:${port}\n  allow_publish_over_sources: true\n`,
    );
    try {
      publish(`rtmp://127.0.0.1:${port}/live/cam`);
      await published(relay.api, 'cam');
    } finally {
      await relay.stop();
    }
  }, 30_000);
});
