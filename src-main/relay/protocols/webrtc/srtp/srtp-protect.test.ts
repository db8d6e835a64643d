import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { RtpHeader, SrtcpSession, SrtpSession } from 'werift';
import {
  deriveSessionKeys,
  importSessionKeys,
  srtpProfile,
  SRTP_AEAD_AES_128_GCM,
  SRTP_AEAD_AES_256_GCM,
  SRTP_AES128_CM_HMAC_SHA1_80,
} from './srtp-keys';
import { loadRelayNative } from '../../../native/native-addon';
import { SrtpProtector } from './srtp-protect';

const hex = (text: string) => Buffer.from(text.replace(/\s+/g, ''), 'hex');
const joined = (parts: Buffer[]) => Buffer.concat(parts).toString('hex');

describe('SRTP key derivation', () => {
  it('derives the session keys of RFC 3711 B.3', () => {
    const keys = deriveSessionKeys(
      srtpProfile(SRTP_AES128_CM_HMAC_SHA1_80),
      hex('E1F97A0D3E018BE0D64FA32C06DE4139'),
      hex('0EC675AD498AFEEBB6960B3AABE6'),
    );
    expect(keys.rtp.key.toString('hex')).toBe('c61e7a93744f39ee10734afe3ff7a087');
    expect(keys.rtp.salt.toString('hex')).toBe('30cbbc08863d8c85d49db34a9ae1');
    // B.3 lists 94 bytes of the auth key stream; SHA1-80 takes its first 20.
    expect(keys.rtp.auth.toString('hex')).toBe('cebe321f6ff7716b6fd4ab49af256a156d38baa4');
  });

  it('refuses a master key or salt of the wrong size for the profile', () => {
    expect(() => SrtpProtector.fromMaster(SRTP_AEAD_AES_128_GCM, randomBytes(16), randomBytes(14))).toThrow(
      /salt of 14 bytes, the profile needs 12/,
    );
    expect(() => SrtpProtector.fromMaster(0x0002, randomBytes(16), randomBytes(14))).toThrow(/0x0002 is not supported/);
  });
});

describe('AES_CM_128_HMAC_SHA1_80', () => {
  it('encrypts with the key stream of RFC 3711 B.2', () => {
    // Session key and salt as B.2 gives them; SSRC, ROC and SEQ 0, so the IV is the salt shifted.
    const keys = importSessionKeys(hex('2B7E151628AED2A6ABF7158809CF4F3C'), hex('F0F1F2F3F4F5F6F7F8F9FAFBFCFD'), randomBytes(20));
    const protector = new SrtpProtector(srtpProfile(SRTP_AES128_CM_HMAC_SHA1_80), { rtp: keys, rtcp: keys });
    const [, encrypted] = protector.protectRtp(Buffer.alloc(12), Buffer.alloc(48), 0, 0, 0);
    expect(encrypted!.toString('hex')).toBe(
      'e03ead0935c95e80e166b16dd92b4eb4' + 'd23513162b02d0f72a43a2fe4a5f97ab' + '41e95b3bb0a2e8dd477901e4fca894c0',
    );
  });
});

describe('AEAD AES-GCM (RFC 7714 16 and 17)', () => {
  const salt = hex('517569642070726f2071756f');
  const rtp = hex('8040f17b 8041f8d3 5501a0b2 47616c6c 69612065 7374206f 6d6e6973 20646976 69736120 696e2070 61727465 73207472 6573');
  const rtcp = hex('81c8000d 4d617273 4e545031 4e545032 52545020 0000042a 0000e930 4c756e61 deadbeef deadbeef deadbeef deadbeef deadbeef');
  const vectors = [
    {
      profile: SRTP_AEAD_AES_128_GCM,
      key: '000102030405060708090a0b0c0d0e0f',
      rtp: '8040f17b8041f8d35501a0b2f24de3a3fb34de6cacba861c9d7e4bcabe633bd50d294e6f42a5f47a51c7d19b36de3adf8833899d7f27beb16a9152cf765ee4390cce',
      rtcp: '81c8000d4d61727363e94885dcdab67ca727d7662f6b7e997ff5c0f76c06f32dc676a5f1730d6fda4ce09b4686303ded0bb9275bc84aa45896cf4d2fc5abf87245d9eade800005d4',
    },
    {
      profile: SRTP_AEAD_AES_256_GCM,
      key: '000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f',
      rtp: '8040f17b8041f8d35501a0b232b1de78a822fe12ef9f78fa332e33aab18012389a58e2f3b50b2a0276ffae0f1ba63799b87b7aa3db36dfffd6b0f9bb7878d7a76c13',
      rtcp: '81c8000d4d617273d50ae4d1f5ce5d304ba297e47d470c282c3ece5dbffe0a50a2eaa5c1110555be8415f658c61de0476f1b6fad1d1eb30c4446839f57ff6f6cb26ac3be800005d4',
    },
  ];
  for (const vector of vectors) {
    it(`protects the RTP and RTCP packets of the RFC with profile 0x000${vector.profile}, in Node's crypto and in the addon`, () => {
      const keys = importSessionKeys(hex(vector.key), salt);
      const native = loadRelayNative();
      for (const addon of native?.srtpGcm ? [undefined, native] : [undefined]) {
        const protector = new SrtpProtector(srtpProfile(vector.profile), { rtp: keys, rtcp: keys }, addon);
        expect(protector.native).toBe(addon !== undefined);
        expect(joined(protector.protectRtp(rtp.subarray(0, 12), rtp.subarray(12), 0x5501a0b2, 0xf17b, 0))).toBe(vector.rtp);
        expect(joined(protector.protectRtcp(rtcp, 0x5d4))).toBe(vector.rtcp);
      }
    });
  }
});

/** werift's own SRTP session keyed with the same master key and salt, on both sides. */
function weriftSessions(profile: number, masterKey: Buffer, masterSalt: Buffer) {
  const other = { key: randomBytes(masterKey.length), salt: randomBytes(masterSalt.length) };
  const keys = (local: { key: Buffer; salt: Buffer }, remote: { key: Buffer; salt: Buffer }) => ({
    keys: { localMasterKey: local.key, localMasterSalt: local.salt, remoteMasterKey: remote.key, remoteMasterSalt: remote.salt },
    profile: profile as 1 | 7,
  });
  const ours = { key: masterKey, salt: masterSalt };
  return {
    sender: new SrtpSession(keys(ours, other)),
    senderRtcp: new SrtcpSession(keys(ours, other)),
    receiver: new SrtpSession(keys(other, ours)),
    receiverRtcp: new SrtcpSession(keys(other, ours)),
  };
}

// Both profiles both ways: in the native addon (built on Linux by `npm install`) and in Node's crypto.
describe.each([
  ['AES_CM_128_HMAC_SHA1_80 (native addon)', SRTP_AES128_CM_HMAC_SHA1_80, 14, loadRelayNative() ?? null],
  ['AES_CM_128_HMAC_SHA1_80 (JavaScript)', SRTP_AES128_CM_HMAC_SHA1_80, 14, null],
  ['AEAD_AES_128_GCM (native addon)', SRTP_AEAD_AES_128_GCM, 12, loadRelayNative() ?? null],
  ['AEAD_AES_128_GCM (JavaScript)', SRTP_AEAD_AES_128_GCM, 12, null],
])('%s next to werift', (_name, profile, saltLength, native) => {
  const masterKey = randomBytes(16);
  const masterSalt = randomBytes(saltLength);

  it('gives the same bytes as werift for consecutive packets across a sequence number wrap, and werift decrypts them', () => {
    const protector = SrtpProtector.fromMaster(profile, masterKey, masterSalt, native);
    expect(protector.native).toBe(native !== null);
    const werift = weriftSessions(profile, masterKey, masterSalt);
    const ssrc = 0x12345678;
    let sequence = 65533;
    let rollover = 0;
    for (let i = 0; i < 8; i++) {
      const payload = randomBytes(100 + i * 97);
      const header = new RtpHeader({ payloadType: 102, sequenceNumber: sequence, timestamp: 90_000 + i * 3000, ssrc, marker: i % 3 === 0 });
      const headerBytes = header.serialize(header.serializeSize);
      const ours = Buffer.concat(protector.protectRtp(headerBytes, payload, ssrc, sequence, rollover));
      expect(ours.toString('hex')).toBe(werift.sender.encrypt(payload, header).toString('hex'));
      expect(ours.length).toBe(12 + payload.length + protector.rtpOverhead);
      expect(werift.receiver.decrypt(ours).toString('hex')).toBe(Buffer.concat([headerBytes, payload]).toString('hex'));
      sequence = (sequence + 1) & 0xffff;
      if (sequence === 0) rollover++;
    }
    expect(rollover).toBe(1);
  });

  it('protects a batch as werift protects each packet: across a wrap, payloads of any length at any offset', () => {
    const protector = SrtpProtector.fromMaster(profile, masterKey, masterSalt, native);
    const werift = weriftSessions(profile, masterKey, masterSalt);
    const ssrc = 0x9abcdef0;
    const source = randomBytes(8000);
    // Lengths below, at and past block and word boundaries; offsets that leave no payload aligned.
    const lengths = [1, 15, 16, 17, 1200, 3, 64, 1399, 0, 5];
    const batch = lengths.map((length, i) => {
      const sequence = (65_530 + i) & 0xffff;
      const rollover = 65_530 + i > 0xffff ? 1 : 0;
      const header = new RtpHeader({ payloadType: 96, sequenceNumber: sequence, timestamp: i * 3000, ssrc, marker: i === 9 });
      const payload = source.subarray(1 + i * 701, 1 + i * 701 + length);
      return { header: header.serialize(header.serializeSize), payload, ssrc, sequence, rollover, weriftHeader: header };
    });
    const datagrams = protector.protectRtpBatch(batch, 0, batch.length);
    expect(datagrams).toHaveLength(lengths.length);
    datagrams.forEach((datagram, i) => {
      const ours = Array.isArray(datagram) ? Buffer.concat(datagram) : datagram;
      const { payload, header, weriftHeader } = batch[i]!;
      expect(ours.length).toBe(12 + payload.length + protector.rtpOverhead);
      expect(ours.toString('hex')).toBe(werift.sender.encrypt(payload, weriftHeader).toString('hex'));
      expect(werift.receiver.decrypt(ours).toString('hex')).toBe(Buffer.concat([header, payload]).toString('hex'));
    });
    // Only the first `count` entries are protected.
    expect(protector.protectRtpBatch(batch, 0, 2)).toHaveLength(2);
  });

  it('protects a batch of 16 KiB of payload (more counter blocks than one cipher call takes natively) as werift does', () => {
    const protector = SrtpProtector.fromMaster(profile, masterKey, masterSalt, native);
    const werift = weriftSessions(profile, masterKey, masterSalt);
    const batch = Array.from({ length: 14 }, (_, i) => {
      const header = new RtpHeader({ payloadType: 96, sequenceNumber: 100 + i, timestamp: 3000, ssrc: 0x55667788, marker: i === 13 });
      const payload = randomBytes(i === 13 ? 357 : 1170);
      return {
        header: header.serialize(header.serializeSize),
        payload,
        ssrc: 0x55667788,
        sequence: 100 + i,
        rollover: 0,
        weriftHeader: header,
      };
    });
    const datagrams = protector.protectRtpBatch(batch, 0, batch.length);
    expect(datagrams.map((d) => (Array.isArray(d) ? Buffer.concat(d) : d).toString('hex'))).toEqual(
      batch.map(({ payload, weriftHeader }) => werift.sender.encrypt(payload, weriftHeader).toString('hex')),
    );
  });

  it('uses the rollover counter: the same sequence number one wrap later is another packet', () => {
    const protector = SrtpProtector.fromMaster(profile, masterKey, masterSalt, native);
    const header = Buffer.from('8066000a00000000deadbeef', 'hex');
    const payload = randomBytes(64);
    const first = Buffer.concat(protector.protectRtp(header, payload, 0xdeadbeef, 10, 0));
    const wrapped = Buffer.concat(protector.protectRtp(header, payload, 0xdeadbeef, 10, 1));
    expect(first.subarray(12).equals(wrapped.subarray(12))).toBe(false);
  });

  it('gives the same SRTCP as werift, which decrypts it', () => {
    const protector = SrtpProtector.fromMaster(profile, masterKey, masterSalt, native);
    const werift = weriftSessions(profile, masterKey, masterSalt);
    // A sender report (28 bytes) of SSRC 0x01020304.
    const report = hex('80c80006 01020304 e8f1a2b3 c4d5e6f7 00015f90 0000012c 0001d4c0');
    // werift counts its SRTCP index from 1.
    const ours = Buffer.concat(protector.protectRtcp(report, 1));
    expect(ours.toString('hex')).toBe(werift.senderRtcp.encrypt(report).toString('hex'));
    expect(werift.receiverRtcp.decrypt(ours).toString('hex')).toBe(report.toString('hex'));
  });
});
