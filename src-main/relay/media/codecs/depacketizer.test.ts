import { describe, expect, it } from 'vitest';
import { fromAvcc, h264NalType } from './h264/nal';
import { createDepacketizer } from './depacketizer';

const packet = (payload: number[], seq = 1, marker = true) => ({
  marker,
  payloadType: 0,
  sequenceNumber: seq,
  timestamp: 160 * seq,
  ssrc: 1,
  payload: new Uint8Array(payload),
});

describe('depacketizer by codec', () => {
  it('passes G.711 and Opus payloads through as frames', () => {
    const pcma = createDepacketizer({ name: 'PCMA', clockRate: 8000, payloadType: 8 });
    expect(pcma.push(packet([0xd5, 0xd5, 0x55]))).toEqual([
      { codec: 'PCMA', timestamp: 160, keyframe: true, data: new Uint8Array([0xd5, 0xd5, 0x55]) },
    ]);
    expect(pcma.push(packet([]))).toEqual([]);
    expect(pcma.stats.errors).toBe(1);
    expect(createDepacketizer({ name: 'OPUS', clockRate: 48000, channels: 2, payloadType: 111 }).push(packet([0x78, 1]))[0]!.codec).toBe(
      'OPUS',
    );
  });

  it('puts the SDP parameter sets before an H.264 keyframe that comes without them', () => {
    const fmtp = 'packetization-mode=1;sprop-parameter-sets=Z2QAH6zZQFAFuwEQAAADABAAAAMDIPGDGWA=,aOvjyyLA';
    const h264 = createDepacketizer({ name: 'H264', clockRate: 90000, payloadType: 96, fmtp });
    const [frame] = h264.push(packet([0x65, 0x88, 0x80, 0x10]));
    expect(frame!.keyframe).toBe(true);
    expect(fromAvcc(frame!.data).map(h264NalType)).toEqual([7, 8, 5]);
  });

  it('joins an H.264 unit sent in FU-A fragments, and drops (and counts) one that lost a fragment', () => {
    const h264 = createDepacketizer({ name: 'H264', clockRate: 90000, payloadType: 96 });
    const nal = Array.from({ length: 30 }, (_, i) => (i * 7 + 1) & 0xff);
    const fu = (seq: number, timestamp: number, flags: number, body: number[], marker = false) => ({
      ...packet([0x7c, flags | 0x01, ...body], seq, marker),
      timestamp,
    });
    // A non-IDR slice (type 1, NRI 3) in three fragments: S, middle, E with the marker.
    expect(h264.push(fu(1, 900, 0x80, nal.slice(0, 10)))).toEqual([]);
    expect(h264.push(fu(2, 900, 0x00, nal.slice(10, 20)))).toEqual([]);
    const [frame] = h264.push(fu(3, 900, 0x40, nal.slice(20), true));
    expect(fromAvcc(frame!.data)).toEqual([new Uint8Array([0x61, ...nal])]);
    // The next unit loses its middle fragment: nothing is passed on, the loss is counted.
    h264.push(fu(4, 1800, 0x80, nal.slice(0, 10)));
    expect(h264.push(fu(6, 1800, 0x40, nal.slice(20), true))).toEqual([]);
    expect(h264.stats.lost).toBe(1);
  });

  it('says which codecs it knows when asked for another', () => {
    expect(() => createDepacketizer({ name: 'VP8', clockRate: 90000, payloadType: 100 })).toThrow(
      /no depacketizer for VP8: supported are H264/,
    );
  });
});
