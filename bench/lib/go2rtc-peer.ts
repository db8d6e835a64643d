import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../src-main/test-support/free-port';

export interface Go2rtcPeer {
  /** `http://127.0.0.1:<port>` of its API. */
  api: string;
  rtspUrl(stream: string): string;
  stop(): Promise<void>;
}

/**
 * go2rtc itself (a binary the caller gives), on loopback only: API, RTSP and WebRTC on free
 * loopback ports, no public STUN server asked, the HomeKit SRTP and RTMP servers off, and the
 * streams given (`streams:` YAML body). Ready once GET /api answers.
 */
export async function startGo2rtc(binary: string, streams: string): Promise<Go2rtcPeer> {
  const [api, rtsp, webrtc] = [await freePort(), await freePort(), await freePort()];
  const dir = await mkdtemp(join(tmpdir(), 'rc-bench-go2rtc-'));
  const config = join(dir, 'go2rtc.yaml');
  await writeFile(
    config,
    [
      `api:\n  listen: "127.0.0.1:${api}"`,
      `rtsp:\n  listen: "127.0.0.1:${rtsp}"`,
      `webrtc:\n  listen: "127.0.0.1:${webrtc}"\n  ice_servers: []`,
      'srtp:\n  listen: ""',
      'rtmp:\n  listen: ""',
      'log:\n  level: error',
      `streams:\n${streams}`,
      '',
    ].join('\n'),
  );
  const child = spawn(binary, ['-config', config], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await exited;
    }
    await rm(dir, { recursive: true, force: true });
  };
  const url = `http://127.0.0.1:${api}`;
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`go2rtc (${binary}) exited with ${child.exitCode} before it answered`);
    }
    if (
      await fetch(`${url}/api`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`go2rtc (${binary}) did not answer on ${url} within 10 s`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { api: url, rtspUrl: (stream) => `rtsp://127.0.0.1:${rtsp}/${stream}`, stop };
}
