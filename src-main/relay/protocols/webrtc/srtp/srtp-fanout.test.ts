import { randomBytes } from 'node:crypto';
import { createSocket, type Socket } from 'node:dgram';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RtpPacket, SrtpSession } from 'werift';
import { quietFor } from '@main/test-support/time';
import type { RtpPacket as RelayPacket } from '../../../core/rtp-packet';
import { loadRelayNative } from '../../../native/native-addon';
import { FanoutPort } from './srtp-fanout';
import { SRTP_AEAD_AES_128_GCM, SRTP_AES128_CM_HMAC_SHA1_80 } from './srtp-keys';
import { SrtpProtector } from './srtp-protect';
import { SrtpTrackSender } from './srtp-track-sender';

const LOOPBACK = 0x7f000001;
const native = loadRelayNative();
const sockets: Socket[] = [];
afterEach(() => sockets.splice(0).forEach((socket) => socket.close()));

async function bound(fd?: number): Promise<Socket> {
  const socket = createSocket('udp4');
  sockets.push(socket);
  await new Promise<void>((resolve) => (fd === undefined ? socket.bind(0, '127.0.0.1', resolve) : socket.bind({ fd }, resolve)));
  return socket;
}

/** The shared port: bound by the addon, owned by dgram, with its fan-outs. */
async function sharedPort(): Promise<FanoutPort> {
  const fd = native!.bindUdp4(LOOPBACK, 0);
  await bound(fd);
  return new FanoutPort(native!, fd);
}

/**
 * A viewer: its own socket, keys, SSRC, payload type and first sequence number, its sender on the
 * shared port, and werift's SRTP receiver with its keys (the browser's side) for what arrives.
 */
async function viewer(port: FanoutPort, ssrc: number, payloadType: number, firstSequence: number, profile = SRTP_AES128_CM_HMAC_SHA1_80) {
  const socket = await bound();
  const got: Buffer[] = [];
  socket.on('message', (message) => got.push(message));
  const key = randomBytes(16);
  const salt = randomBytes(profile === SRTP_AEAD_AES_128_GCM ? 12 : 14);
  const route = { address32: LOOPBACK, port: socket.address().port, alive: () => true };
  const ownSends: Buffer[] = [];
  const sender = new SrtpTrackSender(
    ssrc,
    payloadType,
    90_000,
    SrtpProtector.fromMaster(profile, key, salt, native),
    {
      one: (datagram) => void ownSends.push(Buffer.concat([datagram].flat())),
      all: (datagrams, sent) => {
        for (const datagram of datagrams) ownSends.push(Buffer.concat([datagram].flat()));
        sent();
      },
      fanout: () => ({ port, route }),
    },
    'cname',
    firstSequence,
    true,
  );
  const receiver = new SrtpSession({
    keys: { localMasterKey: randomBytes(16), localMasterSalt: randomBytes(salt.length), remoteMasterKey: key, remoteMasterSalt: salt },
    profile: profile as 1 | 7,
  });
  const decrypted = () => got.map((datagram) => RtpPacket.deSerialize(receiver.decrypt(datagram)));
  return { sender, route, got, ownSends, receiver, decrypted };
}

const packet = (timestamp: number, payload: Buffer, marker = false): RelayPacket => ({
  marker,
  payloadType: 96,
  sequenceNumber: 9,
  timestamp,
  ssrc: 0x1234,
  payload,
});

describe.runIf(native?.srtpCm)('a track fanned out to its viewers on the shared port', () => {
  it('sends each packet once to every viewer, numbered on from its own sender and across a wrap, with its SSRC, payload type and keys (AES-CM or AES-GCM)', async () => {
    const port = await sharedPort();
    const key = {};
    const a = await viewer(port, 0xa0000001, 102, 65_533);
    const b = await viewer(port, 0xb0000002, 96, 100, SRTP_AEAD_AES_128_GCM);
    // Each has sent one packet of its own first (the cached GOP): the fan-out numbers on from there.
    for (const v of [a, b]) v.sender.send(packet(1, randomBytes(50)));
    const memberA = a.sender.joinFanout(key)!;
    const memberB = b.sender.joinFanout(key)!;
    expect(memberA.fanout).toBe(memberB.fanout);
    expect([a.ownSends.length, b.ownSends.length]).toEqual([1, 1]);

    // A picture as a camera sends it: fragments of equal size (one offload message), a shorter end, then a small one.
    const payloads = [1200, 1200, 1200, 700, 33].map((length) => randomBytes(length));
    const packets = payloads.map((payload, i) => packet(90_000 + (i < 4 ? 0 : 3000), payload, i === 3 || i === 4));
    // Every viewer's sink offers every packet: the fan-out takes each once.
    for (const p of packets) {
      memberA.offer(p);
      memberB.offer(p);
    }
    await vi.waitFor(() => expect([a.got.length, b.got.length]).toEqual([5, 5]));
    for (const [v, ssrc, payloadType, first] of [
      [a, 0xa0000001, 102, 65_534],
      [b, 0xb0000002, 96, 101],
    ] as const) {
      const rtp = v.decrypted();
      expect(rtp.map((p) => p.header.sequenceNumber)).toEqual([0, 1, 2, 3, 4].map((i) => (first + i) & 0xffff));
      expect(rtp.map((p) => p.header.ssrc)).toEqual(Array(5).fill(ssrc));
      expect(rtp.map((p) => p.header.payloadType)).toEqual(Array(5).fill(payloadType));
      expect(rtp.map((p) => p.header.marker)).toEqual([false, false, false, true, true]);
      expect(rtp.map((p) => p.header.timestamp)).toEqual(packets.map((p) => p.timestamp));
      rtp.forEach((p, i) => expect(Buffer.from(p.payload).equals(payloads[i]!)).toBe(true));
    }
    // The senders moved on: A wrapped (its next packets count one more rollover).
    expect([a.sender.nextSequence, a.sender.rollover]).toEqual([(65_534 + 5) & 0xffff, 1]);
    expect([b.sender.nextSequence, b.sender.rollover]).toEqual([106, 0]);

    // The next turn goes on in the same numbering, and werift's receiver (which tracks A's rollover) still decrypts.
    const next = packet(93_000, payloads[4]!, true);
    memberA.offer(next);
    memberB.offer(next);
    await vi.waitFor(() => expect([a.got.length, b.got.length]).toEqual([6, 6]));
    expect(a.decrypted().at(-1)!.header.sequenceNumber).toBe(3);
    expect(b.decrypted().at(-1)!.header.sequenceNumber).toBe(106);
    expect(memberA.fanout.dropped).toBe(0);
  });

  it('a viewer that joins mid-turn gets only what follows; a NACK finds the fan-out packet again, the same datagram', async () => {
    const port = await sharedPort();
    const key = {};
    const a = await viewer(port, 0xa1, 102, 500);
    const b = await viewer(port, 0xb1, 102, 9_000);
    const memberA = a.sender.joinFanout(key)!;
    const payloads = [700, 701, 702].map((length) => randomBytes(length));
    memberA.offer(packet(1, payloads[0]!));
    memberA.offer(packet(1, payloads[1]!));
    // B had those two already (its own catch-up): it joins now and gets the third only.
    const memberB = b.sender.joinFanout(key)!;
    memberB.offer(packet(1, payloads[2]!, true));
    memberA.fanout.flush();
    await vi.waitFor(() => expect([a.got.length, b.got.length]).toEqual([3, 1]));
    expect(b.decrypted()[0]!.header.sequenceNumber).toBe(9_000);
    expect(Buffer.from(b.decrypted()[0]!.payload).equals(payloads[2]!)).toBe(true);

    // A lost its second packet: the resend comes through its own path, byte for byte what the fan-out sent.
    const original = a.got[1]!;
    a.sender.resend([501]);
    a.sender.flush();
    expect(a.sender.resent).toBe(1);
    expect(a.ownSends).toHaveLength(1);
    expect(a.ownSends[0]!.equals(original)).toBe(true);
    // B never got the first two from the fan-out: nothing to resend.
    b.sender.resend([(9_000 - 1) & 0xffff]);
    expect(b.sender.resent).toBe(0);
  });

  it('a viewer whose address is gone leaves the fan-out; the others go on, and a closed port sends nothing', async () => {
    const port = await sharedPort();
    const key = {};
    const a = await viewer(port, 0xa2, 102, 1);
    const b = await viewer(port, 0xb2, 102, 1);
    const memberA = a.sender.joinFanout(key)!;
    const memberB = b.sender.joinFanout(key)!;
    b.route.alive = () => false;
    memberA.offer(packet(1, randomBytes(100), true));
    memberA.fanout.flush();
    await vi.waitFor(() => expect(a.got).toHaveLength(1));
    expect(b.got).toHaveLength(0);
    expect([memberA.active, memberB.active, memberA.fanout.size]).toEqual([true, false, 1]);

    port.close();
    memberA.offer(packet(2, randomBytes(100), true));
    memberA.fanout.flush();
    // Nothing arrives however long one waits: 50 ms is ample on loopback.
    await quietFor(50);
    expect(a.got).toHaveLength(1);
    memberA.leave();
    expect(memberA.fanout.size).toBe(0);
  });

  it('drops a payload no UDP datagram can carry (a camera may send one over TCP) and sends the rest', async () => {
    const port = await sharedPort();
    const a = await viewer(port, 0xa4, 102, 1);
    const member = a.sender.joinFanout({})!;
    const small = randomBytes(200);
    member.offer(packet(1, randomBytes(65_500)));
    member.offer(packet(1, small, true));
    await vi.waitFor(() => expect(a.got).toHaveLength(1));
    expect(Buffer.from(a.decrypted()[0]!.payload).equals(small)).toBe(true);
    expect([member.fanout.dropped, a.sender.nextSequence]).toEqual([1, 2]);
  });

  it("waits for an open picture's end within the hold, and sends a large turn in calls of at most 256 packets, in order", async () => {
    const fd = native!.bindUdp4(LOOPBACK, 0);
    await bound(fd);
    const calls: number[] = [];
    const addon = native!;
    const counting: typeof addon = {
      ...addon,
      srtpFanoutContext: () => addon.srtpFanoutContext(),
      srtpFanout: (...args) => {
        calls.push(args[7]);
        return addon.srtpFanout(...args);
      },
    };
    const port = new FanoutPort(counting, fd);
    const a = await viewer(port, 0xa3, 102, 1);
    const member = a.sender.joinFanout({})!;
    // A picture's first part in one turn (a camera's read ended inside it), its end in the next: one call.
    // (The clock the hold reads stands still, so a loaded machine cannot make the turn look late.)
    vi.useFakeTimers({ toFake: ['performance'] });
    try {
      member.offer(packet(7, randomBytes(100)));
      await new Promise((resolve) => setImmediate(resolve));
      expect(calls).toEqual([]);
      member.offer(packet(7, randomBytes(100), true));
    } finally {
      vi.useRealTimers();
    }
    await vi.waitFor(() => expect(a.got).toHaveLength(2));
    expect(calls).toEqual([2]);
    // A keyframe of 300 packets in one turn: 256 (the addon's limit), then the rest. (A loopback
    // receiver's buffer takes about 250 datagrams at once: what arrives is checked for order.)
    for (let i = 0; i < 300; i++) member.offer(packet(10, randomBytes(100), i === 299));
    await vi.waitFor(() => expect(calls).toEqual([2, 256, 44]));
    expect([a.sender.nextSequence, member.fanout.dropped]).toEqual([303, 0]);
    await vi.waitFor(() => expect(a.got.length).toBeGreaterThan(200));
    const sequences = a.decrypted().map((p) => p.header.sequenceNumber);
    expect(sequences.slice(0, 2)).toEqual([1, 2]);
    expect(sequences.every((sequence, i) => i === 0 || sequence > sequences[i - 1]!)).toBe(true);
  });
});
