import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { RtcpPacketConverter, RtcpSrPacket, RtpPacket, SrtcpSession, SrtpSession } from 'werift';
import type { RtpPacket as RelayPacket } from '../../../core/rtp-packet';
import { SRTP_AEAD_AES_128_GCM, SRTP_AES128_CM_HMAC_SHA1_80 } from './srtp-keys';
import { SrtpProtector } from './srtp-protect';
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
  const config = {
    keys: { localMasterKey: randomBytes(16), localMasterSalt: randomBytes(salt.length), remoteMasterKey: key, remoteMasterSalt: salt },
    profile: profile as 1 | 7,
  };
  const sender = new SrtpTrackSender(
    0xcafe0001,
    102,
    90_000,
    SrtpProtector.fromMaster(profile, key, salt),
    (parts) => sent.push(Buffer.concat(parts)),
    'relay-cname',
    65_534,
  );
  return { sender, sent, receiver: new SrtpSession(config), receiverRtcp: new SrtcpSession(config) };
}

describe.each([
  ['AES_CM_128_HMAC_SHA1_80', SRTP_AES128_CM_HMAC_SHA1_80],
  ['AEAD_AES_128_GCM', SRTP_AEAD_AES_128_GCM],
])('a viewer track on the wire (%s)', (_name, profile) => {
  it('numbers packets itself across the wrap, with its SSRC and payload type, and the viewer decrypts each', () => {
    const { sender, sent, receiver } = setUp(profile);
    const payloads = [0, 1, 2, 3].map(() => randomBytes(300));
    payloads.forEach((payload, i) => expect(sender.send(packet(1000 + i, payload, i === 3))).toBe(12 + 300));
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
    // Sequence numbers 65534, 65535, 0, ...: the 200th packet is 197.
    sender.resend([197, 70, 69, 65_535]);
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
