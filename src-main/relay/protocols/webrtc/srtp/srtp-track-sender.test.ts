import { randomBytes } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { RtcpPacketConverter, RtcpSrPacket, RtpPacket, SrtcpSession, SrtpSession } from 'werift';
import type { RtpPacket as RelayPacket } from '../../../core/rtp-packet';
import { SRTP_AEAD_AES_128_GCM, SRTP_AES128_CM_HMAC_SHA1_80 } from './srtp-keys';
import { SrtpProtector } from './srtp-protect';
import { HOLD_MS } from './picture-hold';
import { SrtpTrackSender } from './srtp-track-sender';

const packet = (timestamp: number, payload: Buffer, marker = false): RelayPacket => ({
  marker,
  payloadType: 96,
  sequenceNumber: 7, // the source's own: the viewer gets the sender's
  timestamp,
  ssrc: 0x11111111,
  payload,
});

/** A sender whose datagrams land in `sent`, and werift's SRTP receiver for them (the browser's side). */
function setUp(profile: number) {
  const key = randomBytes(16);
  const salt = randomBytes(profile === SRTP_AEAD_AES_128_GCM ? 12 : 14);
  const sent: Buffer[] = [];
  const whole: Buffer[] = [];
  const config = {
    keys: { localMasterKey: randomBytes(16), localMasterSalt: randomBytes(salt.length), remoteMasterKey: key, remoteMasterSalt: salt },
    profile: profile as 1 | 7,
  };
  const sender = new SrtpTrackSender(
    0xcafe0001,
    102,
    90_000,
    SrtpProtector.fromMaster(profile, key, salt),
    (datagram) => {
      if (!Array.isArray(datagram)) whole.push(datagram);
      sent.push(Array.isArray(datagram) ? Buffer.concat(datagram) : datagram);
    },
    'relay-cname',
    65_534,
  );
  return { sender, sent, whole, receiver: new SrtpSession(config), receiverRtcp: new SrtcpSession(config) };
}

describe.each([
  ['AES_CM_128_HMAC_SHA1_80', SRTP_AES128_CM_HMAC_SHA1_80],
  ['AEAD_AES_128_GCM', SRTP_AEAD_AES_128_GCM],
])('a viewer track on the wire (%s)', (_name, profile) => {
  it('numbers packets itself across the wrap, with its SSRC and payload type, and the viewer decrypts each', async () => {
    const { sender, sent, whole, receiver } = setUp(profile);
    // Payloads of odd lengths at odd offsets, as a camera's packets sit in what the socket read.
    const source = randomBytes(4000);
    const payloads = [301, 17, 1200, 3].map((length, i) => source.subarray(1 + i * 1001, 1 + i * 1001 + length));
    payloads.forEach((payload, i) => expect(sender.send(packet(1000 + i, payload, i === 3))).toBe(12 + payload.length));
    // The turn's packets leave together at its end.
    expect(sent).toHaveLength(0);
    await vi.waitFor(() => expect(sent).toHaveLength(4));
    if (profile === SRTP_AES128_CM_HMAC_SHA1_80) {
      // One buffer holds the turn's datagrams, each sent whole.
      expect(whole).toHaveLength(4);
      expect(new Set(whole.map((d) => d.buffer)).size).toBe(1);
    }
    const got = sent.map((datagram) => RtpPacket.deSerialize(receiver.decrypt(datagram)));
    expect(got.map((p) => p.header.sequenceNumber)).toEqual([65_534, 65_535, 0, 1]);
    expect(got.map((p) => p.header.ssrc)).toEqual(Array(4).fill(0xcafe0001));
    expect(got.map((p) => p.header.payloadType)).toEqual(Array(4).fill(102));
    expect(got.map((p) => p.header.marker)).toEqual([false, false, false, true]);
    expect(got.map((p) => p.payload.toString('hex'))).toEqual(payloads.map((p) => p.toString('hex')));
  });

  it('sends a NACKed packet again, byte for byte, while it is among the last 128; others are gone', () => {
    const { sender, sent } = setUp(profile);
    for (let i = 0; i < 200; i++) sender.send(packet(i, randomBytes(50)));
    sender.flush();
    // Sequence numbers 65534, 65535, 0, ...: the 200th packet is 197.
    sender.resend([197, 70, 69, 65_535]);
    sender.flush();
    expect(sender.resent).toBe(2);
    expect(sent.slice(200)).toEqual([sent[199], sent[72]]);
  });

  it('reports the packets and octets sent and the RTP time of now, with the CNAME, as SRTCP the viewer decrypts', () => {
    const { sender, sent, receiverRtcp } = setUp(profile);
    sender.sendReport(1_700_000_000_000);
    expect(sent).toHaveLength(0); // nothing sent yet, nothing to report
    sender.send(packet(90_000, randomBytes(100)), 1_700_000_000_000);
    sender.send(packet(93_000, randomBytes(40)), 1_700_000_000_000);
    sender.sendReport(1_700_000_000_500);
    // The packets it counts went out before it.
    expect(sent).toHaveLength(3);
    const [report, sdes] = RtcpPacketConverter.deSerialize(receiverRtcp.decrypt(sent[2]!));
    expect(report).toBeInstanceOf(RtcpSrPacket);
    const sr = report as RtcpSrPacket;
    expect(sr.ssrc).toBe(0xcafe0001);
    expect(sr.senderInfo.packetCount).toBe(2);
    expect(sr.senderInfo.octetCount).toBe(140);
    // Half a second after the last packet: 45,000 ticks of the 90 kHz clock later.
    expect(sr.senderInfo.rtpTimestamp).toBe(93_000 + 45_000);
    expect(Number(sr.senderInfo.ntpTimestamp >> 32n)).toBe(1_700_000_000 + 2_208_988_800);
    expect(JSON.stringify(sdes)).toContain('relay-cname');
  });
});

describe('a video track on the wire', () => {
  /** A sender whose batches' sizes land in `batches` (fake timers: the clock moves only when told). */
  function batchesOf(holdPictures: boolean) {
    const batches: number[] = [];
    const protector = SrtpProtector.fromMaster(SRTP_AES128_CM_HMAC_SHA1_80, randomBytes(16), randomBytes(14));
    const path = {
      one: () => undefined,
      all: (datagrams: readonly unknown[], sent: () => void) => {
        batches.push(datagrams.length);
        sent();
      },
    };
    return { sender: new SrtpTrackSender(0xcafe0003, 102, 90_000, protector, path, '', 0, holdPictures), batches };
  }

  it('holds a picture whose packets straddle turns until its last one, at most HOLD_MS: one batch a picture', () => {
    vi.useFakeTimers({ toFake: ['setImmediate', 'setTimeout', 'clearTimeout', 'performance'] });
    try {
      const { sender, batches } = batchesOf(true);
      const payload = randomBytes(1000);
      sender.send(packet(3000, payload));
      sender.send(packet(3000, payload));
      vi.advanceTimersToNextTimer(); // the turn ends without the picture's end: held
      expect(batches).toEqual([]);
      vi.advanceTimersByTime(HOLD_MS / 2);
      sender.send(packet(3000, payload, true));
      vi.advanceTimersToNextTimer(); // its end came in the next turn: the picture goes as one batch
      expect(batches).toEqual([3]);
      // A picture whose end never comes goes HOLD_MS after its first packet.
      sender.send(packet(6000, payload));
      vi.advanceTimersToNextTimer();
      expect(batches).toEqual([3]);
      vi.advanceTimersByTime(HOLD_MS);
      expect(batches).toEqual([3, 1]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('sends audio (no picture end to wait for) at the end of each turn', () => {
    vi.useFakeTimers({ toFake: ['setImmediate', 'setTimeout', 'clearTimeout', 'performance'] });
    try {
      const { sender, batches } = batchesOf(false);
      sender.send(packet(960, randomBytes(80)));
      vi.advanceTimersToNextTimer();
      expect(batches).toEqual([1]);
    } finally {
      vi.useRealTimers();
    }
  });
});
