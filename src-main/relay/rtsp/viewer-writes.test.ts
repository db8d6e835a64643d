import { createServer, connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRtpPacket, type RtpPacket } from '../core/rtp-packet';
import { createViewerWrites } from './viewer-writes';

const packet: RtpPacket = { marker: true, payloadType: 96, sequenceNumber: 513, timestamp: 90_000, ssrc: 0xdeadbeef, payload: Uint8Array.from([0x65, 1, 2, 3]) };

describe('viewer writes', () => {
  it('builds a packet\'s interleaved frame once for every viewer with the same channel and payload type', () => {
    const writes = createViewerWrites();
    const frame = writes.frame(packet, 0, 96);
    expect(writes.frame(packet, 0, 96)).toBe(frame);
    expect([...frame.subarray(0, 4)]).toEqual([0x24, 0, 0, 16]);
    const { payload, ...header } = parseRtpPacket(frame.subarray(4));
    expect({ ...header, payload: [...payload] }).toEqual({ ...packet, payload: [0x65, 1, 2, 3] });
    const other = writes.frame(packet, 2, 97);
    expect(other).not.toBe(frame);
    expect([other[1], other[5]! & 0x7f]).toEqual([2, 97]);
    expect(writes.frame(packet, 2, 97)).toBe(other);
    expect(writes.frame(packet, 0, 96)).toBe(frame);
  });

  describe('on a socket', () => {
    let server: ReturnType<typeof createServer>;
    let client: Socket;
    let accepted: Socket;
    const received: Buffer[] = [];
    beforeAll(async () => {
      server = createServer((socket) => (accepted = socket));
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      client = connect((server.address() as { port: number }).port, '127.0.0.1');
      client.on('data', (chunk: Buffer) => received.push(chunk));
      await new Promise((resolve) => client.once('connect', resolve));
      while (!accepted) await new Promise((resolve) => setTimeout(resolve, 5));
    });
    afterAll(() => {
      client.destroy();
      server.close();
    });

    it('holds a turn\'s writes and sends them together, in order, when the turn\'s I/O is done', async () => {
      const writes = createViewerWrites();
      const frames = [0, 1, 2].map((i) => writes.frame({ ...packet, sequenceNumber: i }, 0, 96));
      for (const frame of frames) expect(writes.write(accepted, frame)).toBe(true);
      // Corked: nothing has gone to the kernel yet in this turn.
      expect(accepted.writableLength).toBe(frames.reduce((sum, f) => sum + f.length, 0));
      await new Promise((resolve) => setImmediate(resolve));
      expect(accepted.writableLength).toBe(0);
      while (Buffer.concat(received).length < 60) await new Promise((resolve) => setTimeout(resolve, 5));
      expect(Buffer.concat(received)).toEqual(Buffer.concat(frames));
    });
  });
});
