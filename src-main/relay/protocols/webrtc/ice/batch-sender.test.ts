import { createSocket, type Socket } from 'node:dgram';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadRelayNative, type RelayNative } from '../../../native/native-addon';
import { BatchSender } from './batch-sender';

const sockets: Socket[] = [];
afterEach(() => sockets.splice(0).forEach((socket) => socket.close()));

async function bound(fd?: number): Promise<Socket> {
  const socket = createSocket('udp4');
  sockets.push(socket);
  await new Promise<void>((resolve) => (fd === undefined ? socket.bind(0, '127.0.0.1', resolve) : socket.bind({ fd }, resolve)));
  return socket;
}

/** A batch as a viewer's protector makes it: datagrams numbered 0.. in one buffer. */
function batch(first: number, count: number, size = 300): Buffer[] {
  const buffer = Buffer.allocUnsafeSlow(count * (size + 8));
  return Array.from({ length: count }, (_, i) => {
    const datagram = buffer.subarray(i * (size + 8), i * (size + 8) + size).fill(0);
    datagram.writeUInt32BE(first + i, 0);
    return datagram;
  });
}

async function receiver(): Promise<{ port: number; numbers: number[] }> {
  const socket = await bound();
  const numbers: number[] = [];
  socket.on('message', (message) => numbers.push(message.readUInt32BE(0)));
  return { port: socket.address().port, numbers };
}

describe.runIf(process.platform === 'linux')('a batch sender on the native addon', () => {
  const addon = loadRelayNative()!;

  /** A sender on the addon, whose sendBatch `wrap` may stand in for; `calls` has each call's `segment`. */
  async function sender(wrap?: RelayNative['sendBatch']) {
    const fd = addon.bindUdp4(0x7f000001, 0);
    const socket = await bound(fd);
    const calls: boolean[] = [];
    const sendBatch = wrap ?? addon.sendBatch;
    // The addon's functions are read-only and not enumerable: the stand-in inherits the others.
    const counted = Object.create(addon, {
      sendBatch: {
        value: (...args: Parameters<RelayNative['sendBatch']>) => {
          calls.push(args[6]);
          return sendBatch(...args);
        },
      },
    }) as RelayNative;
    return { batches: new BatchSender(socket, { addon: counted, fd }), calls };
  }

  it('sends a batch in one call and says so at once; gathered parts go through dgram', async () => {
    const { port, numbers } = await receiver();
    const { batches, calls } = await sender();
    expect(batches.batched).toBe(true);
    let sent = false;
    batches.sendAll(batch(0, 5), port, '127.0.0.1', 0x7f000001, () => (sent = true));
    expect(sent).toBe(true);
    expect(calls).toEqual([true]);
    const parts = [Buffer.alloc(4), Buffer.from('tail')];
    parts[0]!.writeUInt32BE(5, 0);
    const left = new Promise<void>((resolve) => batches.sendAll([parts], port, '127.0.0.1', 0x7f000001, resolve));
    await left;
    expect(calls).toHaveLength(1);
    await vi.waitFor(() => expect(numbers).toEqual([0, 1, 2, 3, 4, 5]));
  });

  it('what the kernel did not take goes through dgram, and later batches follow it there until it is sent: nothing overtakes', async () => {
    const { port, numbers } = await receiver();
    // The send buffer "fills" after two datagrams of the first batch.
    let first = true;
    const { batches, calls } = await sender((fd, buffer, spans, count, address, port_, segment) => {
      if (!first) return addon.sendBatch(fd, buffer, spans, count, address, port_, segment);
      first = false;
      return addon.sendBatch(fd, buffer, spans, 2, address, port_, segment);
    });
    let sent = 0;
    batches.sendAll(batch(0, 6), port, '127.0.0.1', 0x7f000001, () => sent++);
    // Still queued in dgram: the next batch goes behind it, not through the addon.
    batches.sendAll(batch(6, 3), port, '127.0.0.1', 0x7f000001, () => sent++);
    expect(calls).toHaveLength(1);
    await vi.waitFor(() => expect(sent).toBe(2));
    await vi.waitFor(() => expect(numbers).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]));
    // dgram's queue is empty again: batches go through the addon once more.
    batches.sendAll(batch(9, 2), port, '127.0.0.1', 0x7f000001);
    expect(calls).toHaveLength(2);
    await vi.waitFor(() => expect(numbers).toHaveLength(11));
  });

  it('sends without segmentation offload from the first EIO on (a route whose device cannot offload it)', async () => {
    const { port, numbers } = await receiver();
    const { batches, calls } = await sender((fd, buffer, spans, count, address, port_, segment) =>
      segment ? -5 : addon.sendBatch(fd, buffer, spans, count, address, port_, false),
    );
    batches.sendAll(batch(0, 3), port, '127.0.0.1', 0x7f000001);
    batches.sendAll(batch(3, 3), port, '127.0.0.1', 0x7f000001);
    expect(calls).toEqual([true, false, false]);
    await vi.waitFor(() => expect(numbers).toEqual([0, 1, 2, 3, 4, 5]));
  });
});

describe('a batch sender without the addon', () => {
  it('sends each datagram through dgram, in order, and says when the last has left', async () => {
    const { port, numbers } = await receiver();
    const batches = new BatchSender(await bound());
    expect(batches.batched).toBe(false);
    await new Promise<void>((resolve) => batches.sendAll(batch(0, 4), port, '127.0.0.1', 0x7f000001, resolve));
    await vi.waitFor(() => expect(numbers).toEqual([0, 1, 2, 3]));
  });
});
