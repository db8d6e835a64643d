import { describe, expect, it } from 'vitest';
import { interleavedFrame, RtspParser, type RtspChunk } from './rtsp-parser';

const frame = (channel: number, length: number, fill: number) => interleavedFrame(channel, Buffer.alloc(length, fill));
const STREAM = Buffer.concat([
  Buffer.from('RTSP/1.0 200 OK\r\nCSeq: 4\r\nSession: 7\r\n\r\n'),
  frame(0, 1400, 1),
  frame(1, 3, 2),
  frame(0, 700, 3),
  Buffer.from('RTSP/1.0 200 OK\r\nCSeq: 5\r\nContent-Length: 2\r\n\r\nok'),
  frame(2, 1, 4),
  frame(0, 0, 5),
]);

/** What a chunk says, comparable across chunkings. */
const describeChunk = (chunk: RtspChunk) =>
  chunk.type === 'frame' ? `frame ${chunk.channel} ${chunk.payload.toString('hex')}` : `${chunk.type} ${chunk.body.toString()}`;

function parseIn(pieces: Buffer[]): string[] {
  const parser = new RtspParser();
  return pieces.flatMap((piece) => parser.push(piece).map(describeChunk));
}

describe('RTSP parser', () => {
  it('reads the same messages and frames however the bytes are cut, one cut or two anywhere', () => {
    const whole = parseIn([STREAM]);
    expect(whole).toHaveLength(7);
    expect(whole[1]).toBe(`frame 0 ${'01'.repeat(1400)}`);
    for (let a = 1; a < STREAM.length; a += 7) {
      expect(parseIn([STREAM.subarray(0, a), STREAM.subarray(a)])).toEqual(whole);
      const b = Math.min(STREAM.length - 1, a + 1 + (a % 5));
      if (b > a) expect(parseIn([STREAM.subarray(0, a), STREAM.subarray(a, b), STREAM.subarray(b)])).toEqual(whole);
    }
  });

  it('reads a byte at a time', () => {
    expect(parseIn([...STREAM].map((byte) => Buffer.of(byte)))).toEqual(parseIn([STREAM]));
  });

  it('a frame completed by the next read does not copy that read: the frames after it are views of it', () => {
    const parser = new RtspParser();
    const first = frame(0, 100, 1);
    const next = Buffer.concat([first.subarray(50), frame(0, 100, 2)]);
    expect(parser.push(first.subarray(0, 50))).toEqual([]);
    const chunks = parser.push(next);
    expect(chunks.map(describeChunk)).toEqual([`frame 0 ${'01'.repeat(100)}`, `frame 0 ${'02'.repeat(100)}`]);
    const second = chunks[1] as Extract<RtspChunk, { type: 'frame' }>;
    expect(second.payload.buffer).toBe(next.buffer);
  });
});

describe('RTSP parser, read into a sink', () => {
  it('hands each frame where it lies in the read (the read itself, at its offsets), in order with the messages', () => {
    const parser = new RtspParser();
    const seen: Array<[string, number, number] | [string, string]> = [];
    const described: string[] = [];
    parser.read(STREAM, {
      frame: (channel, bytes, start, end) => {
        expect(bytes).toBe(STREAM);
        seen.push([`frame ${channel}`, start, end]);
        described.push(`frame ${channel} ${bytes.subarray(start, end).toString('hex')}`);
      },
      message: (message) => {
        seen.push([message.type, message.body.toString()]);
        described.push(`${message.type} ${message.body.toString()}`);
      },
    });
    const head = Buffer.byteLength('RTSP/1.0 200 OK\r\nCSeq: 4\r\nSession: 7\r\n\r\n');
    const second = head + 2115 + Buffer.byteLength('RTSP/1.0 200 OK\r\nCSeq: 5\r\nContent-Length: 2\r\n\r\nok');
    expect(seen).toEqual([
      ['response', ''],
      ['frame 0', head + 4, head + 1404],
      ['frame 1', head + 1408, head + 1411],
      ['frame 0', head + 1415, head + 2115],
      ['response', 'ok'],
      ['frame 2', second + 4, second + 5],
      ['frame 0', second + 9, second + 9],
    ]);
    expect(described).toEqual(parseIn([STREAM]));
  });
});
