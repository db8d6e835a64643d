import { createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { waitUntil } from '@main/test-support/time';
import { RtspConnection } from './rtsp-connection';
import { interleavedFrame } from './rtsp-parser';

describe("an RTSP connection's reads", () => {
  let server: Server | undefined;
  let connection: RtspConnection | undefined;
  afterEach(async () => {
    connection?.finish();
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  });

  it('land one after another in one slab, each frame handed on where it lies in it', async () => {
    let peer: Socket | undefined;
    server = createServer((socket) => (peer = socket));
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    connection = await RtspConnection.open(`rtsp://127.0.0.1:${port}/cam`);
    const frames: Array<{ bytes: Buffer; start: number; end: number }> = [];
    connection.onFrame((channel, bytes, start, end) => frames.push({ bytes, start, end }));
    await waitUntil(() => peer !== undefined, { timeout: 5_000, interval: 10, what: 'the connection' });

    // Three reads (each waits for the one before to arrive) of two frames each.
    for (let read = 0; read < 3; read++) {
      const count = frames.length;
      peer!.write(Buffer.concat([interleavedFrame(0, Buffer.alloc(1000, 2 * read)), interleavedFrame(0, Buffer.alloc(500, 2 * read + 1))]));
      await waitUntil(() => frames.length === count + 2, { timeout: 5_000, interval: 5, what: `read ${read}` });
    }
    expect(frames.map(({ bytes, start, end }) => [bytes[start], end - start])).toEqual([
      [0, 1000],
      [1, 500],
      [2, 1000],
      [3, 500],
      [4, 1000],
      [5, 500],
    ]);
    // The same slab for all three reads, the frames at their places in it.
    const slab = frames[0]!.bytes.buffer;
    expect(frames.every((f) => f.bytes.buffer === slab)).toBe(true);
    const at = frames.map((f) => f.bytes.byteOffset + f.start);
    expect(at.slice(1).map((offset, i) => offset - at[i]!)).toEqual([1004, 504, 1004, 504, 1004]);
  });
});
