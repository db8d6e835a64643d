import { execFileSync } from 'node:child_process';
import { createServer as createHttpServer } from 'node:http';
import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probe, startRelay, type RelayUnderTest } from '../../test/relay-test-kit';
import { dialTcp } from './tcp-source';

// tcp:// sources and HTTP sources of raw elementary streams, each served by a real socket on
// loopback that sends what ffmpeg made, looping, as a camera or a `libcamera-vid --listen` would.
const ffmpeg = (args: string[]) =>
  execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', ...args, '-'], { maxBuffer: 64 * 1024 * 1024 });
let relay: RelayUnderTest;
const servers: { close(): void }[] = [];

/** Sends `bytes` in 4 KiB pieces every few ms, again and again, to each connection. */
function streamer(bytes: Buffer, write: (chunk: Buffer) => boolean, done: () => boolean): void {
  let at = 0;
  const timer = setInterval(() => {
    if (done()) return clearInterval(timer);
    for (let i = 0; i < 8; i += 1) {
      write(bytes.subarray(at, at + 4096));
      at = at + 4096 >= bytes.length ? 0 : at + 4096;
    }
  }, 10);
}

async function tcpServer(bytes: Buffer): Promise<number> {
  const server: Server = createServer((socket) => {
    socket.on('error', () => undefined); // the relay hangs up: that is the end of it
    streamer(
      bytes,
      (c) => socket.write(c),
      () => socket.destroyed,
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push({ close: () => server.close() });
  return (server.address() as AddressInfo).port;
}

async function httpServer(bytes: Buffer, contentType: string): Promise<number> {
  const server = createHttpServer((req, res) => {
    res.on('error', () => undefined);
    res.writeHead(200, { 'Content-Type': contentType });
    streamer(
      bytes,
      (c) => res.write(c),
      () => res.destroyed,
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push({ close: () => (server.closeAllConnections(), server.close()) });
  return (server.address() as AddressInfo).port;
}

beforeAll(async () => {
  relay = await startRelay();
}, 30_000);
afterAll(async () => {
  for (const server of servers) server.close();
  await relay.stop();
});

const add = async (name: string, source: string) => {
  const response = await fetch(`${relay.api}/api/streams?name=${name}&src=${encodeURIComponent(source)}`, { method: 'PUT' });
  expect(response.status, await response.text()).toBe(200);
};

describe('tcp:// and raw HTTP sources', () => {
  it('tcp:// with MPEG-TS and with raw H.264 plays over the RTSP server', async () => {
    const ts = ffmpeg([
      '-f',
      'lavfi',
      '-i',
      'testsrc=size=320x240:rate=25:duration=4',
      '-c:v',
      'libx264',
      '-g',
      '25',
      '-pix_fmt',
      'yuv420p',
      '-f',
      'mpegts',
    ]);
    await add('tcpts', `tcp://127.0.0.1:${await tcpServer(ts)}`);
    expect(await probe(relay.rtspUrl('tcpts'))).toEqual([expect.objectContaining({ codec_name: 'h264', width: 320, height: 240 })]);

    const h264 = ffmpeg([
      '-f',
      'lavfi',
      '-i',
      'testsrc=size=320x240:rate=25:duration=4',
      '-c:v',
      'libx264',
      '-g',
      '25',
      '-bf',
      '0',
      '-pix_fmt',
      'yuv420p',
      '-f',
      'h264',
    ]);
    await add('tcpraw', `tcp://127.0.0.1:${await tcpServer(h264)}`);
    expect(await probe(relay.rtspUrl('tcpraw'))).toEqual([expect.objectContaining({ codec_name: 'h264', width: 320, height: 240 })]);
  });

  it('HTTP sources of raw H.264 (video/h264), ADTS AAC and WAV', async () => {
    const h264 = ffmpeg([
      '-f',
      'lavfi',
      '-i',
      'testsrc=size=176x144:rate=25:duration=4',
      '-c:v',
      'libx264',
      '-g',
      '25',
      '-bf',
      '0',
      '-pix_fmt',
      'yuv420p',
      '-f',
      'h264',
    ]);
    await add('httph264', `http://127.0.0.1:${await httpServer(h264, 'video/h264')}/video.h264`);
    expect(await probe(relay.rtspUrl('httph264'))).toEqual([expect.objectContaining({ codec_name: 'h264', width: 176, height: 144 })]);

    const adts = ffmpeg(['-f', 'lavfi', '-i', 'sine=sample_rate=44100:duration=4', '-c:a', 'aac', '-f', 'adts']);
    await add('httpaac', `http://127.0.0.1:${await httpServer(adts, 'application/octet-stream')}/audio`);
    expect(await probe(relay.rtspUrl('httpaac'))).toEqual([expect.objectContaining({ codec_type: 'audio', codec_name: 'aac' })]);

    const wav = ffmpeg(['-f', 'lavfi', '-i', 'sine=sample_rate=8000:duration=4', '-c:a', 'pcm_alaw', '-f', 'wav']);
    await add('httpwav', `http://127.0.0.1:${await httpServer(wav, 'audio/wav')}/mic.wav`);
    expect(await probe(relay.rtspUrl('httpwav'))).toEqual([expect.objectContaining({ codec_type: 'audio', codec_name: 'pcm_alaw' })]);
  });

  it('a tcp:// source that sends something else says what it got', async () => {
    const port = await tcpServer(Buffer.from('HELLO WORLD, NOT MEDIA '.repeat(200)));
    await expect(dialTcp(`tcp://127.0.0.1:${port}`, AbortSignal.timeout(5_000))).rejects.toThrow(
      `127.0.0.1:${port} sent bytes that are not MPEG-TS, FLV, MJPEG, raw H.264/H.265, ADTS AAC or WAV (they begin 48454c4c)`,
    );
    await expect(dialTcp('tcp://127.0.0.1', AbortSignal.timeout(5_000))).rejects.toThrow('expected tcp://host:port');
  });

  it('a tcp:// source that streams MPEG-TS with no program in it fails after the first-media wait and hangs up', async () => {
    // Null packets (PID 0x1FFF) only: MPEG-TS by its bytes, but no PAT, PMT or media ever.
    const nullPacket = Buffer.alloc(188, 0xff);
    nullPacket.set([0x47, 0x1f, 0xff, 0x10]);
    let closed = 0;
    const server = createServer((socket) => {
      socket.on('error', () => undefined);
      socket.on('close', () => closed++);
      streamer(
        Buffer.concat(Array.from({ length: 64 }, () => nullPacket)),
        (c) => socket.write(c),
        () => socket.destroyed,
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    servers.push({ close: () => server.close() });
    const port = (server.address() as AddressInfo).port;
    const started = Date.now();
    await expect(
      dialTcp(`tcp://127.0.0.1:${port}`, AbortSignal.timeout(10_000), { firstBytesMs: 5_000, firstMediaMs: 600 }),
    ).rejects.toThrow(`no media from 127.0.0.1:${port} within 0.6 s (its bytes looked like mpegts)`);
    expect(Date.now() - started).toBeGreaterThanOrEqual(590);
    await expect.poll(() => closed).toBe(1); // the relay hung up; nothing keeps reading the socket
  });
});
