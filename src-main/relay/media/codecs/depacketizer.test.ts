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

  it('says which codecs it knows when asked for another', () => {
    expect(() => createDepacketizer({ name: 'VP8', clockRate: 90000, payloadType: 100 })).toThrow(
      /no depacketizer for VP8: supported are H264/,
    );
  });
});
