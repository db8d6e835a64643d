import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run, startRelay, type RelayUnderTest } from '../../test/relay-test-kit';
import { startTwoWayCamera, type TwoWayCamera } from './test-support/two-way-camera';
import { waitUntil } from '@main/test-support/time';

/** G.711 A-law → linear PCM (ITU-T G.711), to check what reached the camera's speaker. */
function alawToLinear(value: number): number {
  const a = value ^ 0x55;
  const segment = (a & 0x70) >> 4;
  let magnitude = ((a & 0x0f) << 4) + 8;
  if (segment > 0) magnitude = (magnitude + 0x100) << (segment - 1);
  return a & 0x80 ? magnitude : -magnitude;
}

function zeroCrossings(samples: number[]): number {
  let count = 0;
  for (let i = 1; i < samples.length; i++) if (samples[i - 1]! < 0 !== samples[i]! < 0) count++;
  return count;
}

const waitFor = <T>(check: () => Promise<T | undefined> | T | undefined, timeoutMs: number, what: string) =>
  waitUntil(check, { timeout: timeoutMs, interval: 100, what });

describe('playing a source into a stream (two-way audio)', () => {
  let camera: TwoWayCamera;
  let plainCamera: TwoWayCamera;
  let relay: RelayUnderTest;
  let dir: string;
  let clipFile: string;
  /** The clip as a client of the API gives it: a URL (a file on this machine comes from the config file only). */
  let clip: string;
  let clipServer: Server;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'backchannel-'));
    clipFile = join(dir, 'chime.wav');
    const made = await run('ffmpeg', [
      '-hide_banner',
      '-loglevel',
      'error',
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=440:sample_rate=8000:duration=2',
      '-ac',
      '1',
      clipFile,
    ]);
    expect(made.code).toBe(0);
    const wav = readFileSync(clipFile);
    clipServer = createServer((_req, res) => res.writeHead(200, { 'Content-Type': 'audio/wav', 'Content-Length': wav.length }).end(wav));
    await new Promise<void>((resolve) => clipServer.listen(0, '127.0.0.1', resolve));
    clip = `http://127.0.0.1:${(clipServer.address() as AddressInfo).port}/chime.wav`;
    camera = await startTwoWayCamera();
    plainCamera = await startTwoWayCamera({ acceptsPlainDescribe: true });
    relay = await startRelay(`  door: ${camera.url}\n  plain: ${plainCamera.url}#backchannel=0\n`);
  });

  afterAll(async () => {
    await relay?.stop();
    await camera?.close();
    await plainCamera?.close();
    clipServer?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const post = (src: string, dst: string) =>
    fetch(`${relay.api}/api/streams?src=${encodeURIComponent(src)}&dst=${encodeURIComponent(dst)}`, { method: 'POST' });

  it('sends a clip to the camera speaker as PCMA, once, then lets the camera go', async () => {
    const response = await post(`ffmpeg:${clip}#audio=pcma#input=file`, 'door');
    expect(response.status, await response.text()).toBe(200);
    expect(camera.describeRequires[0]).toBe('www.onvif.org/ver20/backchannel');

    // While it plays, the stream lists the player as a consumer with the camera's backchannel media.
    const streams = (await (await fetch(`${relay.api}/api/streams?src=door`)).json()) as {
      consumers: Array<{ format_name: string; medias: string[] }>;
    };
    expect(streams.consumers.map((c) => [c.format_name, c.medias[0]])).toEqual([['backchannel', 'audio, sendonly, PCMA, PCMU']]);

    // The file ends after 2 s: the consumer goes away and nothing is left running.
    await waitFor(
      async () => {
        const body = (await (await fetch(`${relay.api}/api/streams?src=door`)).json()) as { consumers: unknown[] };
        return body.consumers.length === 0 ? true : undefined;
      },
      15_000,
      'the player to finish',
    );
    const stack = await (await fetch(`${relay.api}/api/stack`)).text();
    expect(stack).not.toContain('playing ');

    expect(camera.received.length).toBeGreaterThan(10);
    expect(new Set(camera.received.map((p) => p.payloadType))).toEqual(new Set([8]));
    const samples = camera.received.flatMap((p) => [...p.payload].map(alawToLinear));
    // 2 s at 8 kHz, give or take ffmpeg's framing at the edges.
    expect(samples.length).toBeGreaterThan(14_000);
    expect(samples.length).toBeLessThan(18_000);
    // A 440 Hz tone crosses zero 880 times a second.
    const perSecond = zeroCrossings(samples) / (samples.length / 8000);
    expect(perSecond).toBeGreaterThan(860);
    expect(perSecond).toBeLessThan(900);
    // Timestamps advance by the samples sent, as a speaker needs to play them in time.
    const first = camera.received[0]!;
    const last = camera.received.at(-1)!;
    expect(((last.timestamp - first.timestamp) >>> 0) + last.payload.length).toBe(samples.length);
  });

  it('answers 400 naming both sides when the source codec does not fit the speaker', async () => {
    const response = await post(`ffmpeg:${clip}#audio=opus#input=file`, 'door');
    expect(response.status).toBe(400);
    expect(await response.text()).toMatch(/source has audio OPUS\/48000\/2.*two-way audio of stream door accepts PCMA\/8000, PCMU\/8000/);
  });

  it('answers 400 for a stream without two-way audio and for code-running sources', async () => {
    const plain = await post(`ffmpeg:${clip}#audio=pcma#input=file`, 'plain');
    expect(plain.status).toBe(400);
    expect(await plain.text()).toContain('stream plain has no source with two-way audio');
    expect(plainCamera.describeRequires).toEqual(['']);

    const exec = await post('exec:ffmpeg -i x -f rtsp {output}', 'door');
    expect(exec.status).toBe(400);
    expect(await exec.text()).toContain('accepted from the config file only');

    // A file on this machine is the config file's to name, never an API caller's.
    const file = await post(`ffmpeg:${clipFile}#audio=pcma#input=file`, 'door');
    expect(file.status).toBe(400);
    expect(await file.text()).toContain(`ffmpeg: ${clipFile} is a file on this machine`);
  });
});
