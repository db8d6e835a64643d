import { execFileSync, spawn } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { freeUdpPortPair } from '../../../test-support/free-udp-port-pair';
import { parseRtpPacket, serializeRtpPacket, type RtpPacket } from '../../core/rtp-packet';
import { JpegError, parseJpeg } from './jpeg-parse';
import { STANDARD_AC_CHROMA, STANDARD_AC_LUMA, STANDARD_DC_CHROMA, STANDARD_DC_LUMA, quantTablesForQ, sameHuffman } from './jpeg-tables';
import { createJpegDepacketizer, packetizeJpeg } from './rtp-jpeg';

/** One picture of ffmpeg's test pattern as a JPEG, made with the given encoder options. */
function encodeJpeg(options: string[], size = '320x240', filter = 'testsrc'): Uint8Array {
  return execFileSync('ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', `${filter}=size=${size}:rate=25`, '-frames:v', '1', '-c:v', 'mjpeg', ...options, '-f', 'mjpeg', '-']);
}

/** ffmpeg's own decoding of a JPEG to raw planes (in the JPEG's own pixel format, so nothing is converted). */
function decode(jpeg: Uint8Array): { pixels: Buffer; width: number; height: number } {
  const info = JSON.parse(execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'stream=width,height', '-of', 'json', '-f', 'mjpeg', '-'], { input: jpeg }).toString()) as {
    streams: Array<{ width: number; height: number }>;
  };
  const pixels = execFileSync('ffmpeg', ['-v', 'error', '-f', 'mjpeg', '-i', '-', '-f', 'rawvideo', '-'], { input: jpeg });
  return { pixels, ...info.streams[0]! };
}

function roundTrip(jpeg: Uint8Array, mtu = 1200, timestamp = 90000): { packets: Array<{ payload: Uint8Array; marker: boolean }>; out: Uint8Array } {
  const packets = packetizeJpeg(jpeg, mtu);
  const depay = createJpegDepacketizer();
  const frames = packets.flatMap((p, i) => depay.push({ ...p, payloadType: 26, sequenceNumber: 100 + i, timestamp, ssrc: 1 }));
  expect(frames).toHaveLength(1);
  expect(frames[0]).toMatchObject({ codec: 'JPEG', keyframe: true, timestamp });
  return { packets, out: frames[0]!.data };
}

describe('JPEG over RTP (RFC 2435)', () => {
  it('knows the standard Huffman tables byte for byte (as ffmpeg writes them with -huffman default)', () => {
    const parsed = parseJpeg(encodeJpeg(['-pix_fmt', 'yuvj420p', '-huffman', 'default']));
    expect(sameHuffman(parsed.huffmanTables.get('dc0'), STANDARD_DC_LUMA)).toBe(true);
    expect(sameHuffman(parsed.huffmanTables.get('ac0'), STANDARD_AC_LUMA)).toBe(true);
    expect(sameHuffman(parsed.huffmanTables.get('dc1'), STANDARD_DC_CHROMA)).toBe(true);
    expect(sameHuffman(parsed.huffmanTables.get('ac1'), STANDARD_AC_CHROMA)).toBe(true);
  });

  it('scales the Annex K tables for Q 1-99 as RFC 2435 Appendix A does', () => {
    expect(quantTablesForQ(50).luma.subarray(0, 4)).toEqual(Uint8Array.from([16, 11, 12, 14]));
    expect(quantTablesForQ(75).luma.subarray(0, 4)).toEqual(Uint8Array.from([8, 6, 6, 7]));
    expect(quantTablesForQ(1).chroma.every((v) => v === 255)).toBe(true);
  });

  for (const [name, options, type] of [
    ['4:2:0 with ffmpeg\'s own ("optimal") Huffman tables, re-coded losslessly', ['-pix_fmt', 'yuvj420p'], 1],
    ['4:2:2 with the standard Huffman tables', ['-pix_fmt', 'yuvj422p', '-huffman', 'default'], 0],
    ['4:2:0 with restart markers (type 65)', ['-pix_fmt', 'yuvj420p', '-huffman', 'default', '-threads', '4', '-slices', '4'], 65],
    ["4:2:2 in ffmpeg's block order (Y 2x2, chroma 1x2) with restart markers: re-laid out as type 0", ['-pix_fmt', 'yuvj422p', '-threads', '4', '-slices', '4'], 0],
  ] as const) {
    it(`${name}: packetize → depacketize → the same pixels`, () => {
      const jpeg = encodeJpeg([...options, '-q:v', '3']);
      const { packets, out } = roundTrip(jpeg, 1000);
      expect(packets.length).toBeGreaterThan(3);
      expect(Math.max(...packets.map((p) => p.payload.length))).toBeLessThanOrEqual(1000);
      expect(packets.map((p) => p.marker)).toEqual(packets.map((_, i) => i === packets.length - 1));
      expect(packets.every((p) => p.payload[4] === type && p.payload[5] === 255)).toBe(true);
      const original = decode(jpeg);
      const rebuilt = decode(out);
      expect([rebuilt.width, rebuilt.height]).toEqual([320, 240]);
      expect(rebuilt.pixels.equals(original.pixels)).toBe(true);
    });
  }

  it('sets fragment offsets that add up, and the tables only in the first packet', () => {
    const jpeg = encodeJpeg(['-pix_fmt', 'yuvj420p', '-huffman', 'default']);
    const packets = packetizeJpeg(jpeg, 600);
    let expected = 0;
    packets.forEach((p, i) => {
      const offset = (p.payload[1]! << 16) | (p.payload[2]! << 8) | p.payload[3]!;
      expect(offset).toBe(expected);
      const header = i === 0 ? 8 + 4 + 128 : 8;
      if (i === 0) expect([...p.payload.subarray(8, 12)]).toEqual([0, 0, 0, 128]);
      expected += p.payload.length - header;
    });
    expect([packets[0]!.payload[6], packets[0]!.payload[7]]).toEqual([40, 30]);
  });

  it('refuses what RFC 2435 cannot carry, saying what it is', async () => {
    expect(() => packetizeJpeg(encodeJpeg(['-pix_fmt', 'yuvj444p']))).toThrow(/cannot carry.*sampling is 4:4:4/);
    expect(() => packetizeJpeg(encodeJpeg(['-pix_fmt', 'yuvj420p'], '2048x64'))).toThrow(/2048x64, the largest is 2040x2040/);
    const picture = sharp({ create: { width: 64, height: 48, channels: 3, background: '#36c' } });
    const gray = await picture.clone().toColourspace('b-w').jpeg().toBuffer();
    expect(() => packetizeJpeg(gray)).toThrow(/1 color component/);
    const progressive = await picture.clone().jpeg({ progressive: true }).toBuffer();
    expect(() => packetizeJpeg(progressive)).toThrow(/progressive JPEG, only baseline/);
    expect(() => packetizeJpeg(Uint8Array.from([1, 2, 3, 4]))).toThrow(JpegError);
  });

  it('takes the JPEGs libjpeg-style encoders write (sharp/mozjpeg, 4:2:0 with optimized tables)', async () => {
    const jpeg = await sharp({ create: { width: 100, height: 60, channels: 3, background: '#c63' } }).jpeg({ quality: 80 }).toBuffer();
    const { packets, out } = roundTrip(jpeg);
    expect(packets[0]!.payload[4]).toBe(1);
    const rebuilt = decode(out);
    expect([rebuilt.width, rebuilt.height]).toEqual([104, 64]); // RFC 2435 sizes are multiples of 8
  });

  it('drops a frame that lost a fragment and counts it, then takes the next one', () => {
    const jpeg = encodeJpeg(['-pix_fmt', 'yuvj420p']);
    const packets = packetizeJpeg(jpeg, 500);
    const depay = createJpegDepacketizer();
    const send = (list: typeof packets, ts: number, seq: number) =>
      list.flatMap((p, i) => depay.push({ ...p, payloadType: 26, sequenceNumber: seq + i, timestamp: ts, ssrc: 1 }));
    expect(send(packets.filter((_, i) => i !== 2), 0, 0)).toHaveLength(0);
    expect(send(packets, 3600, 100)).toHaveLength(1);
    expect(depay.stats).toMatchObject({ frames: 1, errors: 1 });
    expect(depay.stats.lost).toBeGreaterThan(0);
  });

  it('rebuilds tables from Q 1-99 and from cached in-band tables of Q 128-254', () => {
    const jpeg = encodeJpeg(['-pix_fmt', 'yuvj420p', '-huffman', 'default']);
    const [first, ...rest] = packetizeJpeg(jpeg, 100_000);
    expect(rest).toHaveLength(0);
    const scan = first!.payload.subarray(8 + 4 + 128);
    const depay = createJpegDepacketizer();
    const withQ = (q: number, tables: Uint8Array) => Uint8Array.from([0, 0, 0, 0, 1, q, 40, 30, ...tables, ...scan]);
    // Q 50: the receiver makes the Annex K tables; the picture decodes (with other tables than the original's).
    const [fromQ] = depay.push({ payloadType: 26, marker: true, sequenceNumber: 1, timestamp: 0, ssrc: 1, payload: withQ(50, new Uint8Array(0)) });
    expect(decode(fromQ!.data).width).toBe(320);
    // Q 200 with tables, then Q 200 with a zero-length table header: the first frame's tables serve.
    const tableHeader = first!.payload.subarray(8, 8 + 4 + 128);
    const [a] = depay.push({ payloadType: 26, marker: true, sequenceNumber: 2, timestamp: 1, ssrc: 1, payload: withQ(200, tableHeader) });
    const [b] = depay.push({ payloadType: 26, marker: true, sequenceNumber: 3, timestamp: 2, ssrc: 1, payload: withQ(200, Uint8Array.from([0, 0, 0, 0])) });
    expect(Buffer.from(b!.data).equals(Buffer.from(a!.data))).toBe(true);
    expect(decode(a!.data).pixels.equals(decode(jpeg).pixels)).toBe(true);
  });

  const dir = mkdtempSync(join(tmpdir(), 'rtp-jpeg-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("depacketizes ffmpeg's own RTP JPEG into pictures ffmpeg decodes at 320x240", async () => {
    const socket = createSocket('udp4');
    await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
    const packets: RtpPacket[] = [];
    socket.on('message', (msg) => packets.push(parseRtpPacket(msg)));
    const port = socket.address().port;
    const ffmpeg = spawn('ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', 'testsrc=size=320x240:rate=25', '-frames:v', '5', '-c:v', 'mjpeg', '-pix_fmt', 'yuvj420p', '-huffman', 'default', '-f', 'rtp', `rtp://127.0.0.1:${port}`], { stdio: 'ignore' });
    await new Promise((resolve) => ffmpeg.on('exit', resolve));
    await new Promise((resolve) => setTimeout(resolve, 100)); // the last datagrams
    socket.close();
    expect(packets.every((p) => p.payloadType === 26)).toBe(true);
    const depay = createJpegDepacketizer();
    const frames = packets.flatMap((p) => depay.push(p));
    expect(frames).toHaveLength(5);
    for (const frame of frames) expect(decode(frame.data)).toMatchObject({ width: 320, height: 240 });
  });

  /** ffmpeg reading the SDP on a free port pair while JPEG frames go to it at 25 fps. */
  async function receiveWithFfmpeg(jpeg: Uint8Array): Promise<{ code: number | null; bytes: number; stderr: string }> {
    const port = await freeUdpPortPair();
    const sdp = join(dir, 'in.sdp');
    writeFileSync(sdp, `v=0\r\no=- 0 0 IN IP4 127.0.0.1\r\ns=test\r\nc=IN IP4 127.0.0.1\r\nt=0 0\r\nm=video ${port} RTP/AVP 26\r\n`);
    const ffmpeg = spawn('ffmpeg', ['-v', 'error', '-protocol_whitelist', 'file,udp,rtp', '-i', sdp, '-frames:v', '3', '-f', 'rawvideo', '-pix_fmt', 'gray', '-'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let bytes = 0;
    let stderr = '';
    ffmpeg.stdout.on('data', (d: Buffer) => (bytes += d.length));
    ffmpeg.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const sender = createSocket('udp4');
    let frame = 0;
    const timer = setInterval(() => {
      frame++;
      packetizeJpeg(jpeg).forEach((p, i) => sender.send(serializeRtpPacket({ ...p, payloadType: 26, sequenceNumber: (frame * 100 + i) & 0xffff, timestamp: frame * 3600, ssrc: 9 }), port, '127.0.0.1'));
    }, 40);
    const kill = setTimeout(() => ffmpeg.kill('SIGKILL'), 15_000);
    const code = await new Promise<number | null>((resolve) => ffmpeg.on('close', resolve));
    clearTimeout(kill);
    clearInterval(timer);
    sender.close();
    return { code, bytes, stderr };
  }

  it('sends packets that ffmpeg reads as RTP JPEG (its demuxer decodes them at 320x240)', async () => {
    const jpeg = encodeJpeg(['-pix_fmt', 'yuvj420p', '-threads', '4', '-slices', '4']); // re-coded, with restart markers
    let result = await receiveWithFfmpeg(jpeg);
    // Tests running beside this one open UDP sockets too; one may take the pair between the
    // check and ffmpeg's bind. That is a lost race, not a packet ffmpeg refused: try new ports.
    for (let retry = 0; retry < 3 && /bind failed/.test(result.stderr); retry++) result = await receiveWithFfmpeg(jpeg);
    expect(result, result.stderr).toMatchObject({ code: 0, bytes: 3 * 320 * 240 });
  });
});
