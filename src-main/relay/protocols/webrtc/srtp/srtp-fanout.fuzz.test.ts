import { randomBytes } from 'node:crypto';
import { createSocket, type Socket } from 'node:dgram';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fuzzBudget, fuzzTimeout } from '@main/test-support/fuzz-budget';
import type { RtpPacket } from '../../../core/rtp-packet';
import { loadRelayNative } from '../../../native/native-addon';
import { FanoutPort } from './srtp-fanout';
import { SRTP_AES128_CM_HMAC_SHA1_80 } from './srtp-keys';
import { SrtpProtector } from './srtp-protect';
import { SrtpTrackSender } from './srtp-track-sender';

const native = loadRelayNative();
const LOOPBACK = 0x7f000001;

describe.runIf(native?.srtpCm)('fuzz: NACKs for packets a fan-out sent', () => {
  const sockets: Socket[] = [];
  let port: FanoutPort;
  let sink: number;
  beforeAll(async () => {
    const shared = createSocket('udp4');
    const fd = native!.bindUdp4(LOOPBACK, 0);
    await new Promise<void>((resolve) => shared.bind({ fd }, resolve));
    const receiver = createSocket('udp4');
    await new Promise<void>((resolve) => receiver.bind(0, '127.0.0.1', resolve));
    sockets.push(shared, receiver);
    port = new FanoutPort(native!, fd);
    sink = receiver.address().port;
  });
  afterAll(() => sockets.forEach((socket) => socket.close()));

  it(
    'any 16-bit number a viewer NACKs finds nothing, or exactly the packet sent to it with that number and its rollover; the latest are all found',
    () => {
      const payload = randomBytes(40);
      fc.assert(
        fc.property(
          fc.integer({ min: 0, max: 0xffff }),
          fc.integer({ min: 0, max: 3 }),
          fc.integer({ min: 0, max: 5 }),
          fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 12 }),
          fc.array(fc.integer({ min: 0, max: 0xffff }), { maxLength: 40 }),
          (first, rollover, before, turns, asked) => {
            const protector = SrtpProtector.fromMaster(SRTP_AES128_CM_HMAC_SHA1_80, randomBytes(16), randomBytes(14), native);
            const route = { address32: LOOPBACK, port: sink, alive: () => true };
            const sender = new SrtpTrackSender(
              1,
              102,
              90_000,
              protector,
              { one: () => {}, all: (_d, sent) => sent(), fanout: () => ({ port, route }) },
              '',
              first,
            );
            // Start at any rollover: the fan-out only ever adds to it.
            sender.advance(rollover * 0x10000, 0, 0, 0);
            const key = {};
            const fanout = port.fanout(key, false);
            // Packets of the turn before this viewer joined: never its own.
            for (let i = 0; i < before; i++)
              fanout.offer({ marker: true, payloadType: 96, sequenceNumber: 0, timestamp: i, ssrc: 9, payload });
            const member = sender.joinFanout(key)!;
            const sent = new Map<number, { packet: RtpPacket; rollover: number }>();
            let extended = rollover * 0x10000 + first;
            let timestamp = 100;
            for (const count of turns) {
              for (let i = 0; i < count; i++) {
                const packet: RtpPacket = {
                  marker: i === count - 1,
                  payloadType: 96,
                  sequenceNumber: 0,
                  timestamp: timestamp++,
                  ssrc: 9,
                  payload,
                };
                member.offer(packet);
                sent.set(extended & 0xffff, { packet, rollover: Math.floor(extended / 0x10000) });
                extended++;
              }
              fanout.flush();
            }
            expect(sender.rollover * 0x10000 + sender.nextSequence).toBe(extended);
            for (const sequence of asked) {
              const found = member.lookup(sequence);
              if (found) expect(found).toEqual(sent.get(sequence));
            }
            // Everything it was sent is still kept (fewer than the fan-out's history).
            for (const [sequence, expected] of sent) expect(member.lookup(sequence)).toEqual(expected);
            member.leave();
          },
        ),
        fuzzBudget(),
      );
    },
    fuzzTimeout(),
  );
});
