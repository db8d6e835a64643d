import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { AmfError, decodeAmf0Values, encodeAmf0Values } from './amf0';
import { ChunkReader, RtmpProtocolError, writeChunks, type RtmpMessage } from './chunk-stream';

describe('AMF0', () => {
  it('round-trips a connect command as Flash writes it', () => {
    const values = ['connect', 1, { app: 'live', tcUrl: 'rtmp://127.0.0.1/live', fpad: false, capabilities: 15, nested: { list: [1, 'two', null] } }, null];
    expect(decodeAmf0Values(encodeAmf0Values(values))).toEqual(values);
  });

  it('reads an ECMA array (onMetaData) and refuses cut-off or unknown values', () => {
    // 0x08 ECMA array, count 1, "width" = 320, end.
    const ecma = Buffer.concat([Buffer.from([0x08, 0, 0, 0, 1, 0, 5]), Buffer.from('width'), Buffer.from([0]), Buffer.alloc(8), Buffer.from([0, 0, 9])]);
    ecma.writeDoubleBE(320, 13);
    expect(decodeAmf0Values(ecma)).toEqual([{ width: 320 }]);
    expect(() => decodeAmf0Values(Buffer.from([0x02, 0, 9, 0x41]))).toThrow(AmfError);
    expect(() => decodeAmf0Values(Buffer.from([0x42]))).toThrow('unknown type marker 0x42');
  });
});

describe('RTMP chunk stream', () => {
  const collect = () => {
    const messages: RtmpMessage[] = [];
    return { messages, reader: new ChunkReader((m) => messages.push(m)) };
  };

  it('reassembles messages split into chunks, fed one byte at a time, with extended timestamps', () => {
    const { messages, reader } = collect();
    reader.chunkSize = 100;
    const big = { type: 9, streamId: 1, timestamp: 0x1234567, payload: randomBytes(350) };
    const small = { type: 8, streamId: 1, timestamp: 40, payload: randomBytes(20) };
    const bytes = Buffer.concat([writeChunks(6, big, 100), writeChunks(4, small, 100)]);
    for (const byte of bytes) reader.push(Buffer.from([byte]));
    expect(messages).toEqual([big, small]);
  });

  it('applies format 1-3 headers: deltas, the previous length and type, two-byte chunk stream ids', () => {
    const { messages, reader } = collect();
    // csid 70 (two-byte form), format 0 at t=1000, then format 2 (+40) and format 3 (+40 again).
    const first = writeChunks(70, { type: 8, streamId: 1, timestamp: 1000, payload: Buffer.from('aaaa') }, 128);
    const second = Buffer.concat([Buffer.from([(2 << 6) | 0, 70 - 64, 0, 0, 40]), Buffer.from('bbbb')]);
    const third = Buffer.concat([Buffer.from([(3 << 6) | 0, 70 - 64]), Buffer.from('cccc')]);
    reader.push(Buffer.concat([first, second, third]));
    expect(messages.map((m) => [m.timestamp, m.payload.toString(), m.type])).toEqual([
      [1000, 'aaaa', 8],
      [1040, 'bbbb', 8],
      [1080, 'cccc', 8],
    ]);
  });

  it('refuses a chunk stream that starts without its full header, and oversized messages', () => {
    expect(() => collect().reader.push(Buffer.from([(1 << 6) | 5, 0, 0, 0, 0, 0, 4, 8]))).toThrow(RtmpProtocolError);
    expect(() => collect().reader.push(Buffer.from([5, 0, 0, 0, 0xff, 0xff, 0xff, 9, 1, 0, 0, 0]))).toThrow('more than this relay takes');
  });

  it('never throws anything but a protocol error on garbage', () => {
    for (let i = 0; i < 300; i++) {
      const { reader } = collect();
      try {
        reader.push(randomBytes(1 + (i % 64) * 7));
      } catch (error) {
        expect(error).toBeInstanceOf(RtmpProtocolError);
      }
    }
  });
});
