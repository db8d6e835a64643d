import { createServer, connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { parseRtpPacket, type RtpPacket } from '../../core/rtp-packet';
import { createViewerWrites } from './viewer-writes';
import { quietFor, waitUntil } from '@main/test-support/time';

const packet: RtpPacket = {
  marker: true,
  payloadType: 96,
  sequenceNumber: 513,
  timestamp: 90_000,
  ssrc: 0xdeadbeef,
  payload: Uint8Array.from([0x65, 1, 2, 3]),
};

describe('viewer writes', () => {
  it("builds a packet's interleaved frame once for every viewer with the same channel and payload type", () => {
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

  it('hands on a packet read in an interleaved frame as a view of the read, and writes the frame anew where the viewer needs other header bytes', () => {
    const wire = createViewerWrites().frame(packet, 0, 96);
    // As a connection reads it: the frame somewhere in a read, the packet a view of it.
    const read = Buffer.concat([Buffer.from([7, 7, 7]), wire, Buffer.from([9])]);
    const received = parseRtpPacket(read, 3 + 4, 3 + wire.length);
    // Small buffers share Node's pool: "a view of the read" is where the bytes are, not which ArrayBuffer.
    const inside = (frame: Buffer, read: Buffer) =>
      frame.buffer === read.buffer && frame.byteOffset >= read.byteOffset && frame.byteOffset < read.byteOffset + read.length;
    const writes = createViewerWrites();
    const frame = writes.frame(received, 0, 96);
    expect(inside(frame, read)).toBe(true);
    expect(frame.byteOffset).toBe(read.byteOffset + 3);
    expect(frame).toEqual(wire);
    for (const [channel, payloadType] of [
      [2, 96],
      [0, 97],
    ] as const) {
      const other = writes.frame(received, channel, payloadType);
      expect(inside(other, read)).toBe(false);
      expect([other[1], other[5]! & 0x7f]).toEqual([channel, payloadType]);
      expect(other.subarray(16)).toEqual(wire.subarray(16));
    }
    // Padding in the read (its length counts it, the packet's payload does not): written anew, without it.
    const padded = Buffer.from(wire);
    padded[4]! |= 0x20;
    const withPadding = Buffer.concat([padded, Buffer.from([0, 0, 3])]);
    withPadding.writeUInt16BE(wire.length - 4 + 3, 2);
    const paddedPacket = parseRtpPacket(withPadding, 4, withPadding.length);
    const unpadded = createViewerWrites().frame(paddedPacket, 0, 96);
    expect(inside(unpadded, withPadding)).toBe(false);
    expect(unpadded).toEqual(wire);
  });

  describe('on sockets', () => {
    let server: ReturnType<typeof createServer>;
    const pairs: Array<{ client: Socket; accepted: Socket; received: Buffer[] }> = [];
    const accepted: Socket[] = [];
    beforeAll(async () => {
      // The relay's viewer sockets have a large buffer; a small one here makes "full" easy to reach.
      server = createServer({ highWaterMark: 1024 }, (socket) => accepted.push(socket));
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      for (let i = 0; i < 2; i++) {
        const received: Buffer[] = [];
        const client = connect((server.address() as { port: number }).port, '127.0.0.1');
        client.on('data', (chunk: Buffer) => received.push(chunk));
        await new Promise((resolve) => client.once('connect', resolve));
        await waitUntil(() => accepted.length > i, { interval: 5, what: 'the server to accept the connection' });
        pairs.push({ client, accepted: accepted[i]!, received });
      }
    });
    afterAll(() => {
      for (const { client } of pairs) client.destroy();
      server.close();
    });

    const nextTurn = () => new Promise((resolve) => setImmediate(resolve));
    /** Waits until the client end has read `bytes` more than it had, and returns what came. */
    async function receive(pair: (typeof pairs)[number], bytes: number): Promise<Buffer> {
      await waitUntil(() => Buffer.concat(pair.received).length >= bytes, {
        timeout: 2000,
        interval: 2,
        what: `${bytes} bytes at the client`,
      });
      return Buffer.concat(pair.received.splice(0));
    }
    /** Counts `socket.write` calls and keeps their buffers. */
    function spyWrites(socket: Socket): Buffer[] {
      const calls: Buffer[] = [];
      const write = socket.write.bind(socket) as (chunk: Buffer) => boolean;
      vi.spyOn(socket, 'write').mockImplementation(((chunk: Buffer) => {
        calls.push(chunk);
        return write(chunk);
      }) as Socket['write']);
      return calls;
    }
    const output = (socket: Socket) => ({ socket, onRoom: vi.fn() });
    const framesOf = (writes: ReturnType<typeof createViewerWrites>, from: number, count: number, size = 4) =>
      Array.from({ length: count }, (_, i) =>
        writes.frame({ ...packet, sequenceNumber: from + i, payload: new Uint8Array(size).fill(i) }, 0, 96),
      );

    it("holds a turn's frames and sends them, in order, in one writev when the turn's I/O is done", async () => {
      const [pair] = pairs;
      const writes = createViewerWrites();
      const calls = spyWrites(pair!.accepted);
      const writev = vi.spyOn(pair!.accepted, '_writev');
      const frames = framesOf(writes, 0, 3);
      const viewer = output(pair!.accepted);
      for (const frame of frames) expect(writes.write(viewer, frame, false)).toBe(true);
      expect(calls).toHaveLength(0); // nothing has gone to the socket within the turn
      await nextTurn();
      expect(calls).toEqual(frames); // the frames themselves, uncopied
      expect(writev).toHaveBeenCalledTimes(1);
      expect(await receive(pair!, 60)).toEqual(Buffer.concat(frames));
      vi.restoreAllMocks();
    });

    it('holds a picture that straddles turns until its last packet, then sends it in one write', async () => {
      const [pair] = pairs;
      const writes = createViewerWrites({ holdMs: 1000 });
      const calls = spyWrites(pair!.accepted);
      const viewer = output(pair!.accepted);
      const frames = framesOf(writes, 10, 3);
      writes.write(viewer, frames[0]!, true);
      await nextTurn();
      writes.write(viewer, frames[1]!, true);
      await quietFor(20); // the picture is held, not sent
      expect(calls).toHaveLength(0);
      const writev = vi.spyOn(pair!.accepted, '_writev');
      writes.write(viewer, frames[2]!, false); // the marker packet
      await nextTurn();
      expect(calls).toEqual(frames);
      expect(writev).toHaveBeenCalledTimes(1);
      expect(await receive(pair!, 60)).toEqual(Buffer.concat(frames));
      vi.restoreAllMocks();
    });

    it('lets an unfinished picture go after the hold, so a lost marker packet costs at most that', async () => {
      const [pair] = pairs;
      // A hold far longer than the 10 ms looked at first: a worker beside this one may stall the
      // event loop for tens of milliseconds.
      const writes = createViewerWrites({ holdMs: 300 });
      const calls = spyWrites(pair!.accepted);
      const frames = framesOf(writes, 20, 2);
      const started = performance.now();
      const viewer = output(pair!.accepted);
      for (const frame of frames) writes.write(viewer, frame, true);
      await quietFor(10); // still within the hold
      expect(calls).toHaveLength(0);
      expect(await receive(pair!, 40)).toEqual(Buffer.concat(frames));
      expect(performance.now() - started).toBeGreaterThanOrEqual(299);
      expect(calls).toEqual(frames);
      vi.restoreAllMocks();
    });

    it('sends the first viewer its frames uncopied and joins them once for every later viewer with the same frames', async () => {
      const writes = createViewerWrites();
      const third = output(pairs[1]!.accepted); // a second viewer on the same connection, for a third batch
      const calls = pairs.map((pair) => spyWrites(pair.accepted));
      const viewers = [...pairs.map((pair) => output(pair.accepted)), third];
      const frames = framesOf(writes, 60, 3, 30_000); // 90 KB: a keyframe, say
      for (const frame of frames) for (const viewer of viewers) writes.write(viewer, frame, false);
      await nextTurn();
      expect(calls[0]).toEqual(frames);
      expect(calls[1]).toEqual([Buffer.concat(frames), Buffer.concat(frames)]);
      expect(calls[1]![1]).toBe(calls[1]![0]); // joined once, the same buffer for both
      expect(await receive(pairs[0]!, 3 * 30_016)).toEqual(Buffer.concat(frames));
      expect(await receive(pairs[1]!, 6 * 30_016)).toEqual(Buffer.concat([...frames, ...frames]));
      vi.restoreAllMocks();
    });

    it('joins picture after picture into one space while every socket takes them at once, and into another once a socket keeps one', async () => {
      const writes = createViewerWrites();
      const [first, second] = pairs;
      const calls = spyWrites(second!.accepted);
      const viewers = [output(first!.accepted), output(second!.accepted)];
      const send = async (frames: Buffer[]) => {
        for (const frame of frames) for (const viewer of viewers) writes.write(viewer, frame, false);
        await nextTurn();
      };
      const pictures = [80, 82, 84, 86].map((from) => framesOf(writes, from, 2, 1000));
      await send(pictures[0]!);
      await send(pictures[1]!);
      // The second viewer's copies: one space, written over only once the kernel had the first.
      expect(calls[1]!.buffer).toBe(calls[0]!.buffer);
      expect(await receive(second!, 4 * 1016)).toEqual(Buffer.concat([...pictures[0]!, ...pictures[1]!]));
      await receive(first!, 4 * 1016);

      // The second viewer's kernel buffer full: Node keeps the third picture for it, in the space.
      second!.client.pause();
      let filled = 0;
      while (!second!.accepted.writableNeedDrain) {
        second!.accepted.write(Buffer.alloc(256 * 1024));
        filled += 256 * 1024;
      }
      await send(pictures[2]!);
      await send(pictures[3]!);
      const [third, fourth] = calls.slice(-2);
      expect(fourth!.buffer).not.toBe(third!.buffer);
      second!.client.resume();
      const tail = (await receive(second!, filled + 4 * 1016)).subarray(filled);
      expect(tail).toEqual(Buffer.concat([...pictures[2]!, ...pictures[3]!]));
      await receive(first!, 4 * 1016);
      vi.restoreAllMocks();
    });

    it('says "full" once a viewer\'s socket and batch hold its buffer\'s worth, and sees the viewer woken when there is room', async () => {
      const [pair] = pairs;
      const writes = createViewerWrites();
      const viewer = output(pair!.accepted);
      // One frame past the mark: the kernel takes it at once, so the socket will not emit
      // 'drain' and the writer wakes the viewer itself.
      const [big] = framesOf(writes, 40, 1, 1100);
      expect(writes.write(viewer, big!, false)).toBe(false);
      await nextTurn();
      expect(viewer.onRoom).toHaveBeenCalledTimes(1);
      expect(await receive(pair!, 1116)).toEqual(big);

      // Two frames past the mark go out in one writev that Node counts against the mark: the
      // socket's own 'drain' wakes the viewer (the server listens for it), not the writer.
      const frames = framesOf(writes, 41, 2, 600);
      expect(writes.write(viewer, frames[0]!, false)).toBe(true);
      expect(writes.write(viewer, frames[1]!, false)).toBe(false);
      const drained = new Promise((resolve) => pair!.accepted.once('drain', resolve));
      await nextTurn();
      await drained;
      expect(viewer.onRoom).toHaveBeenCalledTimes(1);
      expect(await receive(pair!, 2 * 616)).toEqual(Buffer.concat(frames));

      // A batch under the mark never said "full": nobody is waiting.
      writes.write(viewer, frames[0]!, false);
      await nextTurn();
      expect(viewer.onRoom).toHaveBeenCalledTimes(1);
      await receive(pair!, 616);
    });

    it('loses nothing a viewer woken during the flush writes at once: it goes out after, in order', async () => {
      const [pair] = pairs;
      const writes = createViewerWrites();
      const calls = spyWrites(pair!.accepted);
      const [big, next, last] = framesOf(writes, 70, 3, 1100);
      const viewer = {
        socket: pair!.accepted,
        // The woken sender writes at once, from inside the flush (once: `next` is all it has).
        onRoom: vi.fn(() => viewer.onRoom.mock.calls.length === 1 && writes.write(viewer, next!, false)),
      };
      expect(writes.write(viewer, big!, false)).toBe(false);
      await nextTurn();
      expect(viewer.onRoom).toHaveBeenCalledTimes(1);
      writes.write(viewer, last!, false);
      await nextTurn();
      expect(calls).toEqual([big, next, last]);
      expect(await receive(pair!, 3 * 1116)).toEqual(Buffer.concat([big!, next!, last!]));
      await nextTurn();
      expect(calls).toHaveLength(3);
      vi.restoreAllMocks();
    });

    it("leaves the waking to the socket's 'drain' when the socket could not take the batch", async () => {
      const [pair] = pairs;
      const writes = createViewerWrites();
      const viewer = output(pair!.accepted);
      pair!.client.pause();
      // Fill the kernel's buffers until Node has to keep bytes itself.
      let filled = 0;
      while (!pair!.accepted.writableNeedDrain) {
        pair!.accepted.write(Buffer.alloc(256 * 1024));
        filled += 256 * 1024;
      }
      const [frame] = framesOf(writes, 50, 1, 600);
      expect(writes.write(viewer, frame!, false)).toBe(false);
      await nextTurn();
      expect(viewer.onRoom).not.toHaveBeenCalled();
      const drained = new Promise((resolve) => pair!.accepted.once('drain', resolve));
      pair!.client.resume();
      await drained;
      expect((await receive(pair!, filled + 616)).subarray(filled)).toEqual(frame);
    });
  });
});
