import { createServer, connect, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { waitUntil } from '@main/test-support/time';
import type { Codec, Media } from '../../core/media';
import { parseRtpPacket, type RtpPacket } from '../../core/rtp-packet';
import { Track } from '../../core/track';
import { ViewerConsumer } from './viewer-consumer';
import { createViewerWrites } from './viewer-writes';

const h264: Codec = { name: 'H264', clockRate: 90000, payloadType: 96 };
const video: Media = { kind: 'video', direction: 'recvonly', codecs: [h264] };
const packet = (seq: number, timestamp: number, payload: number[], marker = true): RtpPacket => ({
  marker,
  payloadType: 96,
  sequenceNumber: seq,
  timestamp,
  ssrc: 7,
  payload: Uint8Array.from(payload),
});

/** The sequence numbers of the interleaved RTP frames in `bytes`, in order. */
function sequencesOf(bytes: Buffer): number[] {
  const out: number[] = [];
  for (let at = 0; at + 4 <= bytes.length; at += 4 + bytes.readUInt16BE(at + 2)) {
    out.push(parseRtpPacket(bytes.subarray(at + 4, at + 4 + bytes.readUInt16BE(at + 2))).sequenceNumber);
  }
  return out;
}

describe('RTSP viewer consumer', () => {
  let server: Server | undefined;
  const sockets: Socket[] = [];
  afterEach(() => {
    for (const socket of sockets.splice(0)) socket.destroy();
    server?.close();
  });

  /** A connected loopback pair: the relay's end, and what the player's end has read. */
  async function connection(): Promise<{ relayEnd: Socket; received: Buffer[] }> {
    const accepted = new Promise<Socket>((resolve) => {
      server = createServer(resolve);
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const player = connect((server!.address() as { port: number }).port, '127.0.0.1');
    const received: Buffer[] = [];
    player.on('data', (chunk: Buffer) => received.push(chunk));
    const relayEnd = await accepted;
    sockets.push(player, relayEnd);
    return { relayEnd, received };
  }

  it('keeps what the track hands over between DESCRIBE and PLAY: the viewer starts with the whole cached keyframe', async () => {
    const { relayEnd, received } = await connection();
    let ids = 0;
    const track = new Track(video, h264, { nextId: () => ++ids });
    track.receive(packet(10, 1000, [0x67, 0x42])); // SPS
    track.receive(packet(11, 1000, [0x65, 0x88])); // IDR
    track.receive(packet(12, 4000, [0x41, 0x9a])); // P
    const viewer = new ViewerConsumer([{ kind: 'video', codecs: ['ANY'] }], relayEnd, 'test', createViewerWrites());
    const sink = viewer.attach(track, { producer: 0, media: 0, codec: h264, request: { kind: 'video', codecs: ['ANY'] } });
    viewer.tracks[0]!.channel = 0; // SETUP over TCP
    track.addSender(sink, h264); // DESCRIBE: the cached picture group, before the viewer plays
    track.receive(packet(13, 7000, [0x41, 0x9a])); // live, still before PLAY
    viewer.play();
    track.receive(packet(14, 10000, [0x41, 0x9a]));
    await waitUntil(() => sequencesOf(Buffer.concat(received)).length >= 5, { timeout: 2000, interval: 2, what: 'five packets' });
    expect(sequencesOf(Buffer.concat(received))).toEqual([10, 11, 12, 13, 14]);
  });
});
