import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { JpegError, parseJpeg } from './jpeg-parse';
import { STANDARD_AC_CHROMA, STANDARD_AC_LUMA, STANDARD_DC_CHROMA, STANDARD_DC_LUMA, quantTablesForQ, sameHuffman } from './jpeg-tables';
import { ffmpegRtpJpeg, JPEG_CASES, jpegFixture, picturesFromQ, roundTrip } from './jpeg-test-cases';
import { createJpegDepacketizer, packetizeJpeg } from './rtp-jpeg';

// The JPEGs are ffmpeg's, recorded (src-main/relay/test/fixtures); ffmpeg decoding what the
// depacketizer rebuilds, and reading what the packetizer sends, is in rtp-jpeg.interop.test.ts.
describe('JPEG over RTP (RFC 2435)', () => {
  it('knows the standard Huffman tables byte for byte (as ffmpeg writes them with -huffman default)', () => {
    const parsed = parseJpeg(jpegFixture('yuvj420p-std.jpg'));
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

  for (const [name, file, type] of JPEG_CASES) {
    it(`${name}: packetize within the MTU as type ${type} → depacketize one picture`, () => {
      const { packets } = roundTrip(jpegFixture(file), 1000);
      expect(packets.length).toBeGreaterThan(3);
      expect(Math.max(...packets.map((p) => p.payload.length))).toBeLessThanOrEqual(1000);
      expect(packets.map((p) => p.marker)).toEqual(packets.map((_, i) => i === packets.length - 1));
      expect(packets.every((p) => p.payload[4] === type && p.payload[5] === 255)).toBe(true);
    });
  }

  it('sets fragment offsets that add up, and the tables only in the first packet', () => {
    const packets = packetizeJpeg(jpegFixture('yuvj420p-std.jpg'), 600);
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
    expect(() => packetizeJpeg(jpegFixture('yuvj444p.jpg'))).toThrow(/cannot carry.*sampling is 4:4:4/);
    expect(() => packetizeJpeg(jpegFixture('yuvj420p-2048x64.jpg'))).toThrow(/2048x64, the largest is 2040x2040/);
    const picture = sharp({ create: { width: 64, height: 48, channels: 3, background: '#36c' } });
    const gray = await picture.clone().toColourspace('b-w').jpeg().toBuffer();
    expect(() => packetizeJpeg(gray)).toThrow(/1 color component/);
    const progressive = await picture.clone().jpeg({ progressive: true }).toBuffer();
    expect(() => packetizeJpeg(progressive)).toThrow(/progressive JPEG, only baseline/);
    expect(() => packetizeJpeg(Uint8Array.from([1, 2, 3, 4]))).toThrow(JpegError);
  });

  it('takes the JPEGs libjpeg-style encoders write (sharp/mozjpeg, 4:2:0 with optimized tables) as type 1', async () => {
    const jpeg = await sharp({ create: { width: 100, height: 60, channels: 3, background: '#c63' } })
      .jpeg({ quality: 80 })
      .toBuffer();
    const { packets } = roundTrip(jpeg);
    expect(packets[0]!.payload[4]).toBe(1);
  });

  it('drops a frame that lost a fragment and counts it, then takes the next one', () => {
    const packets = packetizeJpeg(jpegFixture('yuvj420p.jpg'), 500);
    const depay = createJpegDepacketizer();
    const send = (list: typeof packets, ts: number, seq: number) =>
      list.flatMap((p, i) => depay.push({ ...p, payloadType: 26, sequenceNumber: seq + i, timestamp: ts, ssrc: 1 }));
    expect(
      send(
        packets.filter((_, i) => i !== 2),
        0,
        0,
      ),
    ).toHaveLength(0);
    expect(send(packets, 3600, 100)).toHaveLength(1);
    expect(depay.stats).toMatchObject({ frames: 1, errors: 1 });
    expect(depay.stats.lost).toBeGreaterThan(0);
  });

  it('rebuilds tables from Q 1-99 and from cached in-band tables of Q 128-254', () => {
    const { rest, fromQ, a, b } = picturesFromQ();
    expect(rest).toHaveLength(0);
    expect(fromQ).toMatchObject({ codec: 'JPEG', keyframe: true });
    // Q 200 with a zero-length table header: the first frame's tables serve.
    expect(Buffer.from(b!.data).equals(Buffer.from(a!.data))).toBe(true);
  });

  it("depacketizes ffmpeg's own RTP JPEG into 5 pictures", () => {
    const { packets, frames } = ffmpegRtpJpeg();
    expect(packets.every((p) => p.payloadType === 26)).toBe(true);
    expect(frames).toHaveLength(5);
  });
});
