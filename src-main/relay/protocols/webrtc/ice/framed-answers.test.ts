import { describe, expect, it } from 'vitest';
import { FramedAnswers } from './framed-answers';

const frame = (bytes: Buffer) => Buffer.concat([Buffer.from([bytes.length >> 8, bytes.length & 0xff]), bytes]);
/** A binding success response's header (0x0101, the magic cookie, a transaction id) and `tail`. */
const success = (tail: string) => Buffer.concat([Buffer.from('0101000c2112a442', 'hex'), Buffer.alloc(12, 1), Buffer.from(tail)]);

/** Writes `chunks` through a FramedAnswers that marks each answer it is given, and returns all that came out. */
async function through(chunks: Buffer[]): Promise<Buffer> {
  const frames = new FramedAnswers((answer) => Buffer.concat([Buffer.from('re:'), answer]));
  const out: Buffer[] = [];
  frames.on('data', (chunk: Buffer) => out.push(chunk));
  const ended = new Promise((resolve) => frames.on('end', resolve));
  for (const chunk of chunks) frames.write(chunk);
  frames.end();
  await ended;
  return Buffer.concat(out);
}

/** `bytes` cut at every `size` bytes. */
const cut = (bytes: Buffer, size: number) =>
  Array.from({ length: Math.ceil(bytes.length / size) }, (_, i) => bytes.subarray(i * size, (i + 1) * size));

describe('FramedAnswers', () => {
  const dtls = frame(Buffer.from([22, 0xfe, 0xfd, ...Buffer.alloc(40, 3)]));
  const rtp = frame(Buffer.from([0x80, 0x60, ...Buffer.alloc(1200, 9)]));

  it('passes frames that are not answers byte for byte, however the chunks cut them', async () => {
    const stream = Buffer.concat([dtls, rtp, rtp, dtls]);
    for (const size of [1, 2, 3, 7, 100, stream.length]) expect((await through(cut(stream, size))).equals(stream)).toBe(true);
  });

  it('replaces each binding success with its readdressed frame, in its place, a length before it', async () => {
    const stream = Buffer.concat([dtls, frame(success('x')), rtp, frame(success('y'))]);
    const expected = Buffer.concat([
      dtls,
      frame(Buffer.concat([Buffer.from('re:'), success('x')])),
      rtp,
      frame(Buffer.concat([Buffer.from('re:'), success('y')])),
    ]);
    for (const size of [1, 5, 33, stream.length]) expect((await through(cut(stream, size))).equals(expected)).toBe(true);
  });

  it('lets a frame the agent never finished go on as it came', async () => {
    const unfinished = Buffer.concat([dtls, rtp.subarray(0, 50)]);
    expect((await through([unfinished])).equals(unfinished)).toBe(true);
  });
});
