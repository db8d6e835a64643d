import { expect } from 'vitest';
import { parseRtpPacket } from '@main/relay/core/rtp-packet';
import { fixture, rtpCapture } from '@main/relay/test/media-fixtures';
import { createJpegDepacketizer, packetizeJpeg } from './rtp-jpeg';

/**
 * The JPEGs ffmpeg writes that RTP JPEG carries (320x240 test pattern, see the fixtures'
 * README): their name, file and the RFC 2435 type the packetizer must give them. The unit tests
 * check the packets; the interop tests check ffmpeg decodes the result to the same pixels.
 */
export const JPEG_CASES = [
  ['4:2:0 with ffmpeg\'s own ("optimal") Huffman tables, re-coded losslessly', 'yuvj420p-q3.jpg', 1],
  ['4:2:2 with the standard Huffman tables', 'yuvj422p-std-q3.jpg', 0],
  ['4:2:0 with restart markers (type 65)', 'yuvj420p-std-slices4-q3.jpg', 65],
  ["4:2:2 in ffmpeg's block order (Y 2x2, chroma 1x2) with restart markers: re-laid out as type 0", 'yuvj422p-slices4-q3.jpg', 0],
] as const;

export const jpegFixture = (file: string): Uint8Array => new Uint8Array(fixture(file));

/** Packetizes a JPEG and depacketizes it again: one keyframe at `timestamp` must come back. */
export function roundTrip(
  jpeg: Uint8Array,
  mtu = 1200,
  timestamp = 90000,
): { packets: Array<{ payload: Uint8Array; marker: boolean }>; out: Uint8Array } {
  const packets = packetizeJpeg(jpeg, mtu);
  const depay = createJpegDepacketizer();
  const frames = packets.flatMap((p, i) => depay.push({ ...p, payloadType: 26, sequenceNumber: 100 + i, timestamp, ssrc: 1 }));
  expect(frames).toHaveLength(1);
  expect(frames[0]).toMatchObject({ codec: 'JPEG', keyframe: true, timestamp });
  return { packets, out: frames[0]!.data };
}

/**
 * One picture (4:2:0, standard Huffman tables) sent as a single packet three times: with Q 50
 * (the receiver makes the Annex K tables), with Q 200 and its tables in band, then with Q 200 and
 * a zero-length table header (the tables cached from the frame before serve).
 */
export function picturesFromQ() {
  const jpeg = jpegFixture('yuvj420p-std.jpg');
  const [first, ...rest] = packetizeJpeg(jpeg, 100_000);
  const scan = first!.payload.subarray(8 + 4 + 128);
  const depay = createJpegDepacketizer();
  const withQ = (q: number, tables: Uint8Array) => Uint8Array.from([0, 0, 0, 0, 1, q, 40, 30, ...tables, ...scan]);
  const [fromQ] = depay.push({
    payloadType: 26,
    marker: true,
    sequenceNumber: 1,
    timestamp: 0,
    ssrc: 1,
    payload: withQ(50, new Uint8Array(0)),
  });
  const tableHeader = first!.payload.subarray(8, 8 + 4 + 128);
  const [a] = depay.push({ payloadType: 26, marker: true, sequenceNumber: 2, timestamp: 1, ssrc: 1, payload: withQ(200, tableHeader) });
  const [b] = depay.push({
    payloadType: 26,
    marker: true,
    sequenceNumber: 3,
    timestamp: 2,
    ssrc: 1,
    payload: withQ(200, Uint8Array.from([0, 0, 0, 0])),
  });
  return { jpeg, rest, fromQ, a, b };
}

/** The pictures depacketized from what ffmpeg sent as RTP JPEG (5 pictures 320x240, recorded). */
export function ffmpegRtpJpeg() {
  const packets = rtpCapture('jpeg-rtp-320x240-5f.rtp').map((datagram) => parseRtpPacket(datagram));
  const depay = createJpegDepacketizer();
  return { packets, frames: packets.flatMap((p) => depay.push(p)) };
}
