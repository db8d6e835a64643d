import { describe, expect, it } from 'vitest';
import type { Codec, Media } from './media';
import { negotiate } from './negotiation';
import { startsKeyframe } from './keyframe';
import { parseRtpPacket, serializeRtpPacket, type RtpPacket } from './rtp-packet';
import { Track, type PacketSink } from './track';

const h264: Codec = { name: 'H264', clockRate: 90000, payloadType: 96 };
const aac: Codec = { name: 'MPEG4-GENERIC', clockRate: 48000, channels: 2, payloadType: 97 };
const pcma: Codec = { name: 'PCMA', clockRate: 8000, payloadType: 8 };
const video: Media = { kind: 'video', direction: 'recvonly', codecs: [h264] };
const audio: Media = { kind: 'audio', direction: 'recvonly', codecs: [aac] };

const packet = (seq: number, ts: number, payload: number[], ssrc = 1): RtpPacket => ({
  marker: false,
  payloadType: 96,
  sequenceNumber: seq,
  timestamp: ts,
  ssrc,
  payload: new Uint8Array(payload),
});

describe('codec negotiation', () => {
  it('takes the first producer that has a match, ANY taking its first codec', () => {
    const matches = negotiate(
      [
        { kind: 'video', codecs: ['ANY'] },
        { kind: 'audio', codecs: ['OPUS', 'MPEG4-GENERIC'] },
      ],
      [[video], [audio, { kind: 'audio', direction: 'recvonly', codecs: [pcma] }]],
    );
    expect(matches.map((m) => [m.producer, m.media, m.codec.name])).toEqual([
      [0, 0, 'H264'],
      [1, 0, 'MPEG4-GENERIC'],
    ]);
  });

  it('says what the source has and what the output accepts when nothing matches', () => {
    expect(() =>
      negotiate(
        [
          { kind: 'video', codecs: ['H265'] },
          { kind: 'audio', codecs: ['OPUS'] },
        ],
        [[video, { kind: 'audio', direction: 'recvonly', codecs: [pcma] }]],
      ),
    ).toThrow('codecs not matched: the source has video H264, audio PCMA; this output accepts video H265, audio OPUS');
  });

  it('ALL takes every matching media of every producer', () => {
    const matches = negotiate([{ kind: 'audio', codecs: ['ALL'] }], [[audio], [{ kind: 'audio', direction: 'recvonly', codecs: [pcma] }]]);
    expect(matches.map((m) => m.codec.name)).toEqual(['MPEG4-GENERIC', 'PCMA']);
  });
});

describe('RTP packets', () => {
  it('round-trips the header and refuses what is not RTP', () => {
    const p = packet(65535, 4294967295, [0x65, 1, 2]);
    const parsed = parseRtpPacket(serializeRtpPacket({ ...p, marker: true }));
    expect(parsed).toMatchObject({ marker: true, payloadType: 96, sequenceNumber: 65535, timestamp: 4294967295, ssrc: 1 });
    expect([...parsed.payload]).toEqual([0x65, 1, 2]);
    expect(() => parseRtpPacket(new Uint8Array(5))).toThrow(/too short/);
    expect(() => parseRtpPacket(new Uint8Array(12))).toThrow(/version 2/);
    const withCsrcs = new Uint8Array(12);
    withCsrcs[0] = 0x8f; // 15 CSRCs claimed, none present
    expect(() => parseRtpPacket(withCsrcs)).toThrow(/longer than the packet/);
  });

  it('finds keyframe starts in H264 single NAL, STAP-A and FU-A packets', () => {
    const at = (payload: number[]) => startsKeyframe('H264', packet(0, 0, payload));
    expect(at([0x67, 0x42])).toBe(true); // SPS
    expect(at([0x65, 0x88])).toBe(true); // IDR
    expect(at([0x41, 0x9a])).toBe(false); // P slice
    expect(at([0x78, 0x00, 0x02, 0x67, 0x42, 0x00, 0x02, 0x68, 0xce])).toBe(true); // STAP-A with SPS
    expect(at([0x7c, 0x85])).toBe(true); // FU-A start, IDR
    expect(at([0x7c, 0x05])).toBe(false); // FU-A middle
    expect(startsKeyframe('H265', packet(0, 0, [0x40, 0x01]))).toBe(true); // VPS
    expect(startsKeyframe('H265', packet(0, 0, [0x02, 0x01]))).toBe(false); // TRAIL_R
  });
});

describe('track fan-out', () => {
  const sink = (taken: RtpPacket[], accept = () => true): PacketSink & { drain?: () => void } => {
    const s: PacketSink & { drain?: () => void } = {
      write: (p) => {
        taken.push(p);
        return accept();
      },
      onDrain: (cb) => void (s.drain = cb),
    };
    return s;
  };
  let ids = 0;
  const options = { nextId: () => ++ids, senderCapacity: 4 };

  it('starts a new viewer at the last keyframe', () => {
    const track = new Track(video, h264, options);
    track.receive(packet(1, 1000, [0x41, 0x9a])); // P frame before any keyframe: not cached
    track.receive(packet(2, 2000, [0x67, 0x42])); // SPS
    track.receive(packet(3, 2000, [0x68, 0xce])); // PPS (same access unit)
    track.receive(packet(4, 2000, [0x65, 0x88])); // IDR
    track.receive(packet(5, 5000, [0x41, 0x9a]));
    const taken: RtpPacket[] = [];
    track.addSender(sink(taken));
    expect(taken.map((p) => p.sequenceNumber)).toEqual([2, 3, 4, 5]);
    track.receive(packet(6, 8000, [0x41, 0x9a]));
    expect(taken.map((p) => p.sequenceNumber)).toEqual([2, 3, 4, 5, 6]);
  });

  it('drops and counts for a slow viewer without holding back a fast one', () => {
    const track = new Track(audio, aac, options);
    const slow: RtpPacket[] = [];
    const fast: RtpPacket[] = [];
    const slowSink = sink(slow, () => false); // takes one packet, then its socket is full
    const slowSender = track.addSender(slowSink);
    const fastSender = track.addSender(sink(fast));
    for (let i = 0; i < 20; i++) track.receive(packet(i, i * 1024, [i]));
    expect(fast).toHaveLength(20);
    expect(slow).toHaveLength(1);
    expect(slowSender.queued).toBe(4);
    expect(slowSender.drops).toBe(15);
    expect(fastSender.drops).toBe(0);
    slowSink.drain?.();
    expect(slow).toHaveLength(2);
  });

  it('delivers a long backlog in order once the viewer drains, within its capacity', () => {
    const track = new Track(audio, aac, { nextId: () => ++ids, senderCapacity: 3000 });
    const taken: RtpPacket[] = [];
    let open = false;
    const slowSink = sink(taken, () => open);
    const sender = track.addSender(slowSink);
    for (let i = 0; i < 2500; i++) track.receive(packet(i, i * 1024, [i & 0xff]));
    expect(taken).toHaveLength(1);
    expect(sender.queued).toBe(2499);
    open = true;
    slowSink.drain?.();
    expect(taken.map((p) => p.sequenceNumber)).toEqual(Array.from({ length: 2500 }, (_, i) => i));
    expect(sender.queued).toBe(0);
    expect(sender.drops).toBe(0);
    track.receive(packet(2500, 2500 * 1024, [0]));
    expect(taken).toHaveLength(2501);
  });

  it('holds a whole cached GOP and the usual allowance for a viewer that takes nothing yet (RTSP between SETUP and PLAY)', () => {
    const track = new Track(video, h264, options);
    track.receive(packet(0, 0, [0x65, 0x88])); // IDR
    for (let i = 1; i < 10; i++) track.receive(packet(i, 3000, [0x41, 0x9a]));
    const taken: RtpPacket[] = [];
    let open = false;
    const notPlaying = sink(taken, () => open); // takes the keyframe's packet, then is full
    const sender = track.addSender(notPlaying);
    expect(sender.queued).toBe(9);
    for (let i = 10; i < 15; i++) track.receive(packet(i, 6000, [0x41, 0x9a])); // the allowance of 4, plus the slot the taken packet left
    track.receive(packet(15, 9000, [0x41, 0x9a])); // one too many
    expect(sender.drops).toBe(1);
    open = true;
    notPlaying.drain?.();
    expect(taken.map((p) => p.sequenceNumber)).toEqual(Array.from({ length: 15 }, (_, i) => i));
  });

  it('keeps sequence numbers and timestamps continuous when the source comes back with new ones', () => {
    const track = new Track(video, h264, options);
    const taken: RtpPacket[] = [];
    track.addSender(sink(taken));
    track.receive(packet(100, 9000, [0x65], 1));
    track.receive(packet(101, 12600, [0x41], 1));
    track.receive(packet(7, 500, [0x65], 2)); // reconnected: new SSRC, sequence and clock
    track.receive(packet(8, 4100, [0x41], 2));
    expect(taken.map((p) => p.sequenceNumber)).toEqual([100, 101, 102, 103]);
    expect(new Set(taken.map((p) => p.ssrc)).size).toBe(1);
    expect(taken[2]!.timestamp - taken[1]!.timestamp).toBe(3600);
    expect(taken[3]!.timestamp - taken[2]!.timestamp).toBe(3600);
  });
});
