import { execFileSync, spawn } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { freeUdpPortPair } from '@main/test-support/free-udp-port-pair';
import { serializeRtpPacket } from '@main/relay/core/rtp-packet';
import { ffmpegRtpJpeg, JPEG_CASES, jpegFixture, picturesFromQ, roundTrip } from './jpeg-test-cases';
import { packetizeJpeg } from './rtp-jpeg';

/** ffmpeg's own decoding of a JPEG to raw planes (in the JPEG's own pixel format, so nothing is converted). */
function decode(jpeg: Uint8Array): { pixels: Buffer; width: number; height: number } {
  const info = JSON.parse(
    execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'stream=width,height', '-of', 'json', '-f', 'mjpeg', '-'], {
      input: jpeg,
    }).toString(),
  ) as {
    streams: Array<{ width: number; height: number }>;
  };
  const pixels = execFileSync('ffmpeg', ['-v', 'error', '-f', 'mjpeg', '-i', '-', '-f', 'rawvideo', '-'], { input: jpeg });
  return { pixels, ...info.streams[0]! };
}

// The packets themselves are checked in rtp-jpeg.test.ts; here ffmpeg decodes what comes out.
describe('JPEG over RTP (RFC 2435), decoded by ffmpeg', () => {
  for (const [name, file] of JPEG_CASES) {
    it(`${name}: packetize → depacketize → the same pixels`, () => {
      const jpeg = jpegFixture(file);
      const { out } = roundTrip(jpeg, 1000);
      const original = decode(jpeg);
      const rebuilt = decode(out);
      expect([rebuilt.width, rebuilt.height]).toEqual([320, 240]);
      expect(rebuilt.pixels.equals(original.pixels)).toBe(true);
    });
  }

  it('takes the JPEGs libjpeg-style encoders write (sharp/mozjpeg, 4:2:0 with optimized tables): ffmpeg decodes them', async () => {
    const jpeg = await sharp({ create: { width: 100, height: 60, channels: 3, background: '#c63' } })
      .jpeg({ quality: 80 })
      .toBuffer();
    const { out } = roundTrip(jpeg);
    const rebuilt = decode(out);
    expect([rebuilt.width, rebuilt.height]).toEqual([104, 64]); // RFC 2435 sizes are multiples of 8
  });

  it('rebuilds tables from Q 1-99 and from cached in-band tables of Q 128-254 that ffmpeg decodes', () => {
    const { jpeg, fromQ, a } = picturesFromQ();
    // Q 50: the receiver makes the Annex K tables; the picture decodes (with other tables than the original's).
    expect(decode(fromQ!.data).width).toBe(320);
    // Q 200 with the original's tables: the original's pixels.
    expect(decode(a!.data).pixels.equals(decode(jpeg).pixels)).toBe(true);
  });

  it("depacketizes ffmpeg's own RTP JPEG into pictures ffmpeg decodes at 320x240", () => {
    const { frames } = ffmpegRtpJpeg();
    expect(frames).toHaveLength(5);
    for (const frame of frames) expect(decode(frame.data)).toMatchObject({ width: 320, height: 240 });
  });

  const dir = mkdtempSync(join(tmpdir(), 'rtp-jpeg-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** ffmpeg reading the SDP on a free port pair while JPEG frames go to it at 25 fps. */
  async function receiveWithFfmpeg(jpeg: Uint8Array): Promise<{ code: number | null; bytes: number; stderr: string }> {
    const port = await freeUdpPortPair();
    const sdp = join(dir, 'in.sdp');
    writeFileSync(sdp, `v=0\r\no=- 0 0 IN IP4 127.0.0.1\r\ns=test\r\nc=IN IP4 127.0.0.1\r\nt=0 0\r\nm=video ${port} RTP/AVP 26\r\n`);
    const ffmpeg = spawn(
      'ffmpeg',
      ['-v', 'error', '-protocol_whitelist', 'file,udp,rtp', '-i', sdp, '-frames:v', '3', '-f', 'rawvideo', '-pix_fmt', 'gray', '-'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let bytes = 0;
    let stderr = '';
    ffmpeg.stdout.on('data', (d: Buffer) => (bytes += d.length));
    ffmpeg.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const sender = createSocket('udp4');
    let frame = 0;
    const timer = setInterval(() => {
      frame++;
      packetizeJpeg(jpeg).forEach((p, i) =>
        sender.send(
          serializeRtpPacket({ ...p, payloadType: 26, sequenceNumber: (frame * 100 + i) & 0xffff, timestamp: frame * 3600, ssrc: 9 }),
          port,
          '127.0.0.1',
        ),
      );
    }, 40);
    const kill = setTimeout(() => ffmpeg.kill('SIGKILL'), 15_000);
    const code = await new Promise<number | null>((resolve) => ffmpeg.on('close', resolve));
    clearTimeout(kill);
    clearInterval(timer);
    sender.close();
    return { code, bytes, stderr };
  }

  it('sends packets that ffmpeg reads as RTP JPEG (its demuxer decodes them at 320x240)', async () => {
    const jpeg = jpegFixture('yuvj420p-slices4.jpg'); // re-coded, with restart markers
    let result = await receiveWithFfmpeg(jpeg);
    // Tests running beside this one open UDP sockets too; one may take the pair between the
    // check and ffmpeg's bind. That is a lost race, not a packet ffmpeg refused: try new ports.
    for (let retry = 0; retry < 3 && /bind failed/.test(result.stderr); retry++) result = await receiveWithFfmpeg(jpeg);
    expect(result, result.stderr).toMatchObject({ code: 0, bytes: 3 * 320 * 240 });
  });
});
