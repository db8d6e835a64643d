import { randomBytes } from 'node:crypto';
import { createSocket, type Socket } from 'node:dgram';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RtpPacket, SrtpSession } from 'werift';
import type { RtpPacket as RelayPacket } from '../../../core/rtp-packet';
import { SRTP_AES128_CM_HMAC_SHA1_80 } from './srtp-keys';
import { SrtpProtector } from './srtp-protect';
import { BATCH_BYTES, SrtpTrackSender, type Transmit } from './srtp-track-sender';

const packet = (timestamp: number, payload: Buffer): RelayPacket => ({
  marker: false,
  payloadType: 96,
  sequenceNumber: 1,
  timestamp,
  ssrc: 0x11111111,
  payload,
});

/** An AES-CM sender over `transmit`, and werift's receiver for what it sends (the browser's side). */
function setUp(transmit: Transmit) {
  const key = randomBytes(16);
  const salt = randomBytes(14);
  const sender = new SrtpTrackSender(0xcafe0002, 102, 90_000, SrtpProtector.fromMaster(SRTP_AES128_CM_HMAC_SHA1_80, key, salt), transmit);
  const receiver = new SrtpSession({
    keys: { localMasterKey: randomBytes(16), localMasterSalt: randomBytes(14), remoteMasterKey: key, remoteMasterSalt: salt },
    profile: SRTP_AES128_CM_HMAC_SHA1_80,
  });
  const payloadOf = (datagram: Buffer) => RtpPacket.deSerialize(receiver.decrypt(datagram)).payload.toString('hex');
  return { sender, payloadOf };
}

const sockets: Socket[] = [];
afterEach(() => sockets.splice(0).forEach((socket) => socket.close()));

describe('the buffers a viewer track protects into', () => {
  it('cuts a large turn (a cached GOP) into batches of at most BATCH_BYTES of payload, each in a buffer of about that size', () => {
    const sent: Buffer[] = [];
    const { sender, payloadOf } = setUp((datagram) => sent.push(datagram as Buffer));
    const payloads = Array.from({ length: 200 }, () => randomBytes(1200));
    payloads.forEach((payload, i) => sender.send(packet(i * 3000, payload)));
    sender.flush();
    expect(sent.map(payloadOf)).toEqual(payloads.map((p) => p.toString('hex')));
    const buffers = new Set(sent.map((datagram) => datagram.buffer));
    // 240,000 bytes of payload, 13 packets (15,600 bytes) a batch.
    expect(buffers.size).toBe(Math.ceil(200 / Math.floor(BATCH_BYTES / 1200)));
    // Payload, header, tag and HMAC's pad per packet: nothing the size of the whole turn.
    for (const buffer of buffers) expect(buffer.byteLength).toBeLessThan(BATCH_BYTES + 13 * (12 + 64 + 12));
  });

  it('writes a later batch into a buffer only once a real UDP socket has sent every datagram it held', async () => {
    const receiver = createSocket('udp4');
    // Not bound yet: its first sends wait for the bind it starts, so they are still queued when the next turn comes.
    const socket = createSocket('udp4');
    sockets.push(receiver, socket);
    await new Promise<void>((resolve) => receiver.bind(0, '127.0.0.1', resolve));
    const arrived: Buffer[] = [];
    receiver.on('message', (message) => arrived.push(message));
    const turns: ArrayBufferLike[][] = [];
    let sentCalls = 0;
    const { sender, payloadOf } = setUp((datagram, sent) => {
      turns.at(-1)!.push((datagram as Buffer).buffer);
      socket.send(datagram, receiver.address().port, '127.0.0.1', () => {
        sentCalls++;
        sent?.();
      });
    });
    const turn = (payloads: Buffer[]) => {
      turns.push([]);
      payloads.forEach((payload, i) => sender.send(packet(i, payload)));
      sender.flush();
      return new Set(turns.at(-1));
    };
    const payloads = Array.from({ length: 12 }, () => randomBytes(1000));

    const [first] = turn(payloads.slice(0, 4));
    expect(sentCalls).toBe(0);
    const [second] = turn(payloads.slice(4, 8));
    expect(second).not.toBe(first);
    await vi.waitFor(() => expect(arrived).toHaveLength(8));
    // Each turn's bytes as protected: the first turn's buffer was not written over while it waited.
    expect(arrived.map(payloadOf)).toEqual(payloads.slice(0, 8).map((p) => p.toString('hex')));

    await vi.waitFor(() => expect(sentCalls).toBe(8));
    const third = turn(payloads.slice(8, 12));
    // Sent: a buffer of the turns before holds the next one, no new one.
    expect(third.size).toBe(1);
    expect([first, second]).toContain([...third][0]);
    await vi.waitFor(() => expect(arrived).toHaveLength(12));
    expect(arrived.slice(8).map(payloadOf)).toEqual(payloads.slice(8).map((p) => p.toString('hex')));
  });
});
