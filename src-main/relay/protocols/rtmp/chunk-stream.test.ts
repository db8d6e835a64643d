import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { AmfError, decodeAmf0Values, encodeAmf0Values } from './amf0';
import { ChunkReader, MAX_CHUNK_STREAMS, RtmpProtocolError, writeChunks, type RtmpMessage } from './chunk-stream';

describe('AMF0', () => {
  it('round-trips a connect command as Flash writes it', () => {
    const values = [
      'connect',
      1,
      { app: 'live', tcUrl: 'rtmp://127.0.0.1/live', fpad: false, capabilities: 15, nested: { list: [1, 'two', null] } },
      null,
    ];
    expect(decodeAmf0Values(encodeAmf0Values(values))).toEqual(values);
  });

  it('reads an ECMA array (onMetaData) and refuses cut-off or unknown values', () => {
    // 0x08 ECMA array, count 1, "width" = 320, end.
    const ecma = Buffer.concat([
      Buffer.from([0x08, 0, 0, 0, 1, 0, 5]),
      Buffer.from('width'),
      Buffer.from([0]),
      Buffer.alloc(8),
      Buffer.from([0, 0, 9]),
    ]);
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

  it(`refuses a chunk stream past ${MAX_CHUNK_STREAMS} on one connection`, () => {
    const { messages, reader } = collect();
    const one = (csid: number) => writeChunks(csid, { type: 8, streamId: 1, timestamp: 0, payload: Buffer.from('a') }, 128);
    for (let csid = 2; csid < 2 + MAX_CHUNK_STREAMS; csid++) reader.push(one(csid));
    expect(messages).toHaveLength(MAX_CHUNK_STREAMS);
    expect(() => reader.push(one(2 + MAX_CHUNK_STREAMS))).toThrow(
      new RtmpProtocolError(`more than ${MAX_CHUNK_STREAMS} chunk streams on one connection`),
    );
  });

  it('a new message header in the middle of a message drops the unfinished one and reads the new one whole', () => {
    const { messages, reader } = collect();
    // 128 of a 200-byte message, then a format 1 header for a 10-byte message on the same chunk stream.
    reader.push(writeChunks(6, { type: 9, streamId: 1, timestamp: 0, payload: Buffer.alloc(200, 1) }, 128).subarray(0, 12 + 128));
    expect(reader.bufferedBytes).toBe(128);
    reader.push(Buffer.concat([Buffer.from([(1 << 6) | 6, 0, 0, 40, 0, 0, 10, 9]), Buffer.from('0123456789')]));
    expect(messages.map((m) => [m.timestamp, m.payload.toString()])).toEqual([[40, '0123456789']]);
    expect(reader.bufferedBytes).toBe(0);
  });

  it('an Abort drops the unfinished message; release lets go of everything held', () => {
    const { messages, reader } = collect();
    const video = writeChunks(6, { type: 9, streamId: 1, timestamp: 0, payload: Buffer.alloc(300, 1) }, 128);
    reader.push(video.subarray(0, 12 + 128));
    reader.abort(6);
    expect(reader.bufferedBytes).toBe(0);
    reader.push(video.subarray(0, 12 + 128 + 1 + 50));
    expect(reader.bufferedBytes).toBe(128 + 1 + 50); // a finished chunk, and one cut off with its 1-byte header
    reader.release();
    expect(reader.bufferedBytes).toBe(0);
    expect(messages).toEqual([]);
  });

  it('keeps its own copy of an unfinished message, not a view that pins the socket read it came in', () => {
    const { messages, reader } = collect();
    const video = writeChunks(6, { type: 9, streamId: 1, timestamp: 0, payload: Buffer.alloc(200, 1) }, 128);
    // The first chunk arrives inside a large read; the read's memory is then reused.
    const read = Buffer.concat([video.subarray(0, 12 + 128), Buffer.alloc(0)]);
    reader.push(read);
    read.fill(0);
    reader.push(video.subarray(12 + 128));
    expect(messages[0]!.payload).toEqual(Buffer.alloc(200, 1));
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
