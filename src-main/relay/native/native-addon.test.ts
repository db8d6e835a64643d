import { createSocket, type Socket } from 'node:dgram';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadRelayNative } from './native-addon';

const LOOPBACK = 0x7f000001;
const sockets: Socket[] = [];
afterEach(() => sockets.splice(0).forEach((socket) => socket.close()));

async function receiver(): Promise<{ socket: Socket; got: Buffer[] }> {
  const socket = createSocket('udp4');
  sockets.push(socket);
  const got: Buffer[] = [];
  socket.on('message', (message) => got.push(message));
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return { socket, got };
}

/** A socket bound by the addon and adopted by dgram, as the shared WebRTC port is. */
async function adopted(fd: number): Promise<Socket> {
  const socket = createSocket('udp4');
  sockets.push(socket);
  await new Promise<void>((resolve) => socket.bind({ fd }, resolve));
  return socket;
}

describe('the native addon', () => {
  it('is built on Linux (npm install compiles it) and can be turned off with RELAY_NATIVE=0', () => {
    if (process.platform === 'linux') expect(loadRelayNative()).toBeDefined();
    expect(loadRelayNative({ RELAY_NATIVE: '0' })).toBeUndefined();
  });
});

describe.runIf(process.platform === 'linux')('batched UDP sends', () => {
  const native = loadRelayNative()!;

  it('sends a batch in its order, byte for byte, runs of equal datagrams cut where they were (segmentation offload)', async () => {
    const { socket: to, got } = await receiver();
    const fd = native.bindUdp4(LOOPBACK, 0);
    const from = await adopted(fd);
    // As a viewer's batch lies in its buffer: datagrams apart, a short one, a run of equal ones and its shorter end.
    const sizes = [40, 1200, 1200, 1200, 700, 1200, 1200, 90, 5];
    const buffer = new ArrayBuffer(16 * 1024);
    const bytes = new Uint8Array(buffer);
    const spans = new Int32Array(sizes.length * 2);
    let at = 3;
    sizes.forEach((size, i) => {
      for (let b = 0; b < size; b++) bytes[at + b] = (i * 31 + b) & 0xff;
      spans[2 * i] = at;
      spans[2 * i + 1] = size;
      at += size + 17;
    });
    for (const segment of [true, false]) {
      got.length = 0;
      expect(native.sendBatch(fd, buffer, spans, sizes.length, LOOPBACK, to.address().port, segment)).toBe(sizes.length);
      await vi.waitFor(() => expect(got).toHaveLength(sizes.length));
      expect(got.map((datagram) => datagram.length)).toEqual(sizes);
      got.forEach((datagram, i) => expect(datagram.equals(Buffer.from(buffer, spans[2 * i], sizes[i]))).toBe(true));
    }
    // dgram owns the descriptor: it reports the port and closes it.
    expect(from.address().address).toBe('127.0.0.1');
  });

  it('refuses spans outside the buffer, or too many, sending nothing', async () => {
    const { socket: to, got } = await receiver();
    const fd = native.bindUdp4(LOOPBACK, 0);
    await adopted(fd);
    const buffer = new ArrayBuffer(100);
    const port = to.address().port;
    expect(native.sendBatch(fd, buffer, new Int32Array([0, 10, 95, 10]), 2, LOOPBACK, port, false)).toBe(-22);
    expect(native.sendBatch(fd, buffer, new Int32Array([-1, 10]), 1, LOOPBACK, port, false)).toBe(-22);
    expect(native.sendBatch(fd, buffer, new Int32Array([0, 0]), 1, LOOPBACK, port, false)).toBe(-22);
    // More datagrams than spans given.
    expect(native.sendBatch(fd, buffer, new Int32Array([0, 10]), 2, LOOPBACK, port, false)).toBe(-22);
    expect(native.sendBatch(fd, buffer, new Int32Array(600), 300, LOOPBACK, port, false)).toBe(-22);
    // A good datagram after them is the first to arrive: none of the refused ones left.
    new Uint8Array(buffer)[0] = 0x42;
    expect(native.sendBatch(fd, buffer, new Int32Array([0, 1]), 1, LOOPBACK, port, false)).toBe(1);
    await vi.waitFor(() => expect(got).toHaveLength(1));
    expect(got[0]).toEqual(Buffer.from([0x42]));
  });

  it('says EADDRINUSE for a port already taken, as dgram would', async () => {
    const { socket: taken } = await receiver();
    expect(() => native.bindUdp4(LOOPBACK, taken.address().port)).toThrow(expect.objectContaining({ code: 'EADDRINUSE' }));
  });

  it('gives a negative errno, not an exception, when the kernel takes nothing (a descriptor that is not a socket)', () => {
    expect(native.sendBatch(2 ** 20, new ArrayBuffer(10), new Int32Array([0, 10]), 1, LOOPBACK, 9, false)).toBe(-9); // EBADF
  });
});

describe.runIf(process.platform === 'linux' && loadRelayNative()?.srtpCm)("a track's fan-out (srtpFanout)", () => {
  const native = loadRelayNative()!;
  const context = () => native.srtpCmContext(new Uint8Array(16), new Uint8Array(14), new Uint8Array(20))!;
  /** One viewer at `port`: address, port, SSRC, payload type, sequence, rollover, skipped, unused. */
  const row = (port: number, skip = 0) => new Int32Array([LOOPBACK, port, 0x1234, 96, 1, 0, skip, 0]);

  it('refuses packets outside the input, rows out of range and handles of another kind, sending nothing', async () => {
    const { socket: to, got } = await receiver();
    const fd = native.bindUdp4(LOOPBACK, 0);
    await adopted(fd);
    const fanout = native.srtpFanoutContext();
    const input = new ArrayBuffer(100);
    const results = new Int32Array(1);
    const port = to.address().port;
    const send = (packets: Int32Array, count: number, rows = row(port), contexts: unknown[] = [context()]) =>
      native.srtpFanout(fanout, fd, contexts as never, rows, 1, input, packets, count, true, results);
    expect(send(new Int32Array([95, 10, 0, 1]), 1)).toBe(-22);
    expect(send(new Int32Array([-1, 10, 0, 1]), 1)).toBe(-22);
    expect(send(new Int32Array([0, 10, 0, 1]), 2)).toBe(-22);
    expect(send(new Int32Array(4 * 300), 300)).toBe(-22);
    expect(send(new Int32Array([0, 10, 0, 1]), 1, row(70_000))).toBe(-22);
    expect(send(new Int32Array([0, 10, 0, 1]), 1, row(port, 2))).toBe(-22);
    expect(send(new Int32Array([0, 10, 0, 1]), 1, row(port), [])).toBe(-22);
    // A handle of another kind is never read as an SRTP context, nor a context as a fan-out.
    expect(() => send(new Int32Array([0, 10, 0, 1]), 1, row(port), [fanout])).toThrow(TypeError);
    expect(() => native.srtpCmProtect(fanout as never, input, new Int32Array(4), 0)).toThrow(TypeError);
    expect(() =>
      native.srtpFanout(context() as never, fd, [context()], row(port), 1, input, new Int32Array([0, 10, 0, 1]), 1, true, results),
    ).toThrow(TypeError);
    // A viewer that skips the whole turn gets nothing; then a good call: one datagram, the first to arrive.
    expect(send(new Int32Array([0, 10, 0, 1]), 1, row(port, 1))).toBe(0);
    expect(results[0]).toBe(0);
    expect(send(new Int32Array([0, 10, 0, 1]), 1)).toBe(0);
    expect(results[0]).toBe(1);
    await vi.waitFor(() => expect(got).toHaveLength(1));
    expect(got[0]!.length).toBe(12 + 10 + 10);
  });

  it('gives each viewer a negative errno when the kernel takes nothing, and goes on with the others', async () => {
    const { socket: to, got } = await receiver();
    const fd = native.bindUdp4(LOOPBACK, 0);
    await adopted(fd);
    const rows = new Int32Array([...row(to.address().port), ...row(0)]);
    const results = new Int32Array(2);
    // Port 0 cannot be sent to (EINVAL): the first viewer's datagram still goes.
    const answer = native.srtpFanout(
      native.srtpFanoutContext(),
      fd,
      [context(), context()],
      rows,
      2,
      new ArrayBuffer(10),
      new Int32Array([0, 10, 0, 1]),
      1,
      true,
      results,
    );
    expect(answer).toBe(0);
    expect([results[0], results[1]! < 0]).toEqual([1, true]);
    await vi.waitFor(() => expect(got).toHaveLength(1));
  });
});

describe.runIf(process.platform === 'linux' && loadRelayNative()?.srtpCm)('SRTCP (srtcpCmProtect, srtcpCmUnprotect)', () => {
  const native = loadRelayNative()!;
  const context = native.srtpCmContext(new Uint8Array(16).fill(1), new Uint8Array(14).fill(2), new Uint8Array(20).fill(3))!;

  it('refuses packets too short or without room, and tells a forged tag from a malformed packet, changing nothing', () => {
    const buffer = new ArrayBuffer(64);
    const bytes = new Uint8Array(buffer);
    expect(native.srtcpCmProtect(context, buffer, 0, 7, 1)).toBe(-22);
    expect(native.srtcpCmProtect(context, buffer, 40, 20, 1)).toBe(-22); // no room for index and tag
    expect(native.srtcpCmProtect(context, buffer, 70, 8, 1)).toBe(-22);
    expect(native.srtcpCmUnprotect(context, buffer, 0, 21)).toBe(-22);
    expect(native.srtcpCmUnprotect(context, buffer, 60, 28)).toBe(-22);
    bytes.set([0x80, 0xc8, 0, 1, 1, 2, 3, 4]);
    expect(native.srtcpCmProtect(context, buffer, 0, 8, 0x8000_0005)).toBe(22); // E is set by the call; the index keeps 31 bits
    expect([...bytes.subarray(8, 12)]).toEqual([0x80, 0, 0, 5]);
    const sealed = bytes.slice(0, 22);
    bytes[21]! ^= 1;
    expect(native.srtcpCmUnprotect(context, buffer, 0, 22)).toBe(-74); // EBADMSG
    expect(bytes.subarray(0, 21)).toEqual(sealed.subarray(0, 21));
    bytes[21]! ^= 1;
    expect(native.srtcpCmUnprotect(context, buffer, 0, 22)).toBe(5);
  });
});

describe.runIf(process.platform === 'linux' && loadRelayNative()?.srtpGcm)(
  'AES-GCM (srtpGcmProtect, srtcpGcmProtect, srtcpGcmUnprotect)',
  () => {
    const native = loadRelayNative()!;
    const gcm = native.srtpGcmContext(new Uint8Array(16).fill(4), new Uint8Array(12).fill(5))!;

    it('refuses keys of the wrong size, spans out of the buffer and handles of another kind, writing nothing', () => {
      expect(() => native.srtpGcmContext(new Uint8Array(24), new Uint8Array(12))).toThrow(RangeError);
      expect(() => native.srtpGcmContext(new Uint8Array(16), new Uint8Array(14))).toThrow(RangeError);
      const buffer = new ArrayBuffer(64);
      const bytes = new Uint8Array(buffer);
      expect(native.srtpGcmProtect(gcm, buffer, new Int32Array([0, 12, 40, 0]), 1)).toBe(-22); // no room for the tag
      expect(native.srtpGcmProtect(gcm, buffer, new Int32Array([0, 11, 10, 0]), 1)).toBe(-22);
      expect(native.srtcpGcmProtect(gcm, buffer, 40, 8, 1)).toBe(-22);
      expect(native.srtcpGcmUnprotect(gcm, buffer, 0, 27)).toBe(-22);
      expect(bytes.every((b) => b === 0)).toBe(true);
      const cm = native.srtpCmContext(new Uint8Array(16), new Uint8Array(14), new Uint8Array(20))!;
      expect(() => native.srtpGcmProtect(cm as never, buffer, new Int32Array(4), 0)).toThrow(TypeError);
      expect(() => native.srtcpCmUnprotect(gcm as never, buffer, 0, 30)).toThrow(TypeError);
      // Sealed, then opened in place; a changed byte is refused and leaves the bytes as they were.
      bytes.set([0x80, 0xc8, 0, 1, 1, 2, 3, 4, 9, 9, 9, 9]);
      expect(native.srtcpGcmProtect(gcm, buffer, 0, 12, 3)).toBe(32);
      bytes[10]! ^= 1;
      const forged = bytes.slice(0, 32);
      expect(native.srtcpGcmUnprotect(gcm, buffer, 0, 32)).toBe(-74);
      expect(bytes.subarray(0, 32)).toEqual(forged);
      bytes[10]! ^= 1;
      expect(native.srtcpGcmUnprotect(gcm, buffer, 0, 32)).toBe(3);
      expect([...bytes.subarray(8, 12)]).toEqual([9, 9, 9, 9]);
    });
  },
);
