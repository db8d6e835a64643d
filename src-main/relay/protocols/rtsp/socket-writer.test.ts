import { once } from 'node:events';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { loadRelayNative, type RelayNative } from '../../native/native-addon';
import { createSocketWriter } from './socket-writer';

const closers: Array<() => void> = [];
afterEach(() => closers.splice(0).forEach((close) => close()));

/** A connected pair on loopback: `relay` writes, `viewer` reads (paused until told). */
async function pair(): Promise<{ relay: Socket; viewer: Socket }> {
  const server: Server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const accepted = once(server, 'connection') as Promise<[Socket]>;
  const viewer = connect((server.address() as { port: number }).port, '127.0.0.1');
  viewer.pause();
  const [relay] = await accepted;
  await once(viewer, 'connect');
  closers.push(() => {
    relay.destroy();
    viewer.destroy();
    server.close();
  });
  return { relay, viewer };
}

/** Pictures numbered from `first`: each `size` bytes, every 4-byte word its picture's number and its place. */
function pictures(first: number, count: number, size: number): Buffer[] {
  return Array.from({ length: count }, (_, i) => {
    const picture = Buffer.allocUnsafeSlow(size);
    for (let at = 0; at + 4 <= size; at += 4) picture.writeUInt32BE(((first + i) << 16) | ((at / 4) & 0xffff), at);
    return picture;
  });
}

/** Reads until `bytes` have come (the viewer stays open). */
function readAll(viewer: Socket, bytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let got = 0;
  return new Promise((resolve) => {
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      got += chunk.length;
      if (got < bytes) return;
      viewer.off('data', onData);
      resolve(Buffer.concat(chunks));
    };
    viewer.on('data', onData);
    viewer.resume();
  });
}

/** The addon with `writeStream` counted (its functions are read-only: the stand-in inherits the others). */
function counted(addon: RelayNative): { native: RelayNative; calls: number[] } {
  const calls: number[] = [];
  const native = Object.create(addon, {
    writeStream: {
      value: (...args: Parameters<RelayNative['writeStream']>) => {
        const taken = addon.writeStream(...args);
        calls.push(taken);
        return taken;
      },
    },
  }) as RelayNative;
  return { native, calls };
}

describe.runIf(process.platform === 'linux')('the RTSP server socket writer on the native addon', () => {
  const addon = loadRelayNative()!;

  it('writes straight into the kernel while Node holds nothing for the socket', async () => {
    const { relay, viewer } = await pair();
    const { native, calls } = counted(addon);
    const write = createSocketWriter(native);
    const sent = pictures(0, 10, 4000);
    for (const picture of sent) write(relay, picture);
    expect(calls).toEqual(Array(10).fill(4000));
    expect(relay.writableLength).toBe(0);
    expect((await readAll(viewer, 40_000)).equals(Buffer.concat(sent))).toBe(true);
  });

  it('keeps the order when the kernel is full: the rest goes through Node, and later writes follow it there', async () => {
    const { relay, viewer } = await pair();
    const { native, calls } = counted(addon);
    const write = createSocketWriter(native);
    // A viewer that reads nothing: the kernel's buffers fill, then Node queues.
    const sent = pictures(0, 400, 64 * 1024);
    for (const picture of sent) write(relay, picture);
    const partial = calls.findIndex((taken) => taken < 64 * 1024);
    expect(partial).toBeGreaterThan(0);
    // From the first picture the kernel did not take whole, every one went through Node.
    expect(calls.length).toBe(partial + 1);
    expect(relay.writableLength).toBeGreaterThan(0);
    const drained = once(relay, 'drain');
    const received = await readAll(viewer, 400 * 64 * 1024);
    expect(received.length).toBe(400 * 64 * 1024);
    expect(received.equals(Buffer.concat(sent))).toBe(true);
    // Drained: the next picture goes straight in again.
    await drained;
    write(relay, pictures(400, 1, 1000)[0]!);
    expect(calls.at(-1)).toBe(1000);
  });

  it('never writes around a TLS socket, a corked one, or one without a descriptor', async () => {
    const { relay } = await pair();
    const { native, calls } = counted(addon);
    const write = createSocketWriter(native);
    Object.defineProperty(relay, 'encrypted', { value: true, configurable: true });
    write(relay, Buffer.from('through its encryption'));
    delete (relay as { encrypted?: boolean }).encrypted;
    relay.cork();
    write(relay, Buffer.from('after the corked ones'));
    relay.uncork();
    expect(calls).toEqual([]);
  });

  it('a viewer gone: the write through Node fails as it would have, and nothing throws', async () => {
    const { relay, viewer } = await pair();
    // The reset reaches the relay's kernel at once, before its JavaScript has read anything.
    viewer.resetAndDestroy();
    const { native, calls } = counted(addon);
    const write = createSocketWriter(native);
    const failed = new Promise((resolve) => relay.once('error', resolve).once('close', resolve));
    for (const picture of pictures(0, 5, 1000)) write(relay, picture);
    await failed;
    expect(calls.some((taken) => taken < 0)).toBe(true);
    expect(relay.destroyed).toBe(true);
  });
});

describe('the RTSP server socket writer without the addon', () => {
  it("is Node's own write", async () => {
    const { relay, viewer } = await pair();
    const write = createSocketWriter(undefined);
    const sent = pictures(0, 3, 100);
    for (const picture of sent) write(relay, picture);
    expect((await readAll(viewer, 300)).equals(Buffer.concat(sent))).toBe(true);
  });
});
