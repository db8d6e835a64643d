import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SRTP_AEAD_AES_128_GCM, SRTP_AES128_CM_HMAC_SHA1_80 } from './srtp-keys';
import { SrtcpUnprotector } from './srtcp-unprotect';
import { SrtpProtector } from './srtp-protect';

const report = (n: number) =>
  Buffer.from(`81c90007 0000001${n} cafe0001 0c000022 00000007 00000001 00000000 00000000`.replace(/\s+/g, ''), 'hex');

describe('SRTCP from a viewer', () => {
  const key = randomBytes(16);
  const salt = randomBytes(14);
  const viewer = SrtpProtector.fromMaster(SRTP_AES128_CM_HMAC_SHA1_80, key, salt, null);
  const sealed = (index: number, n = 1) => Buffer.concat(viewer.protectRtcp(report(n), index));

  it('opens what the viewer sealed, and refuses another key, a changed byte and a replay', () => {
    const relay = SrtcpUnprotector.fromMaster(SRTP_AES128_CM_HMAC_SHA1_80, key, salt)!;
    expect(relay.unprotect(sealed(1))).toEqual(report(1));
    expect(relay.unprotect(sealed(1))).toBeUndefined();
    const stranger = SrtcpUnprotector.fromMaster(SRTP_AES128_CM_HMAC_SHA1_80, randomBytes(16), salt)!;
    expect(stranger.unprotect(sealed(2))).toBeUndefined();
    const changed = sealed(3);
    changed[9]! ^= 0x40;
    expect(relay.unprotect(changed)).toBeUndefined();
    expect(relay.unprotect(sealed(3, 3))).toEqual(report(3));
  });

  it('takes late packets within 64 indices once each, and none further back', () => {
    const relay = SrtcpUnprotector.fromMaster(SRTP_AES128_CM_HMAC_SHA1_80, key, salt)!;
    expect(relay.unprotect(sealed(100))).toBeDefined();
    expect(relay.unprotect(sealed(90))).toBeDefined();
    expect(relay.unprotect(sealed(90))).toBeUndefined();
    expect(relay.unprotect(sealed(37))).toBeDefined();
    expect(relay.unprotect(sealed(36))).toBeUndefined();
    // A jump forward past the window forgets what was below it.
    expect(relay.unprotect(sealed(1000))).toBeDefined();
    expect(relay.unprotect(sealed(999))).toBeDefined();
    expect(relay.unprotect(sealed(100))).toBeUndefined();
  });

  it('leaves the AEAD profiles to werift', () => {
    expect(SrtcpUnprotector.fromMaster(SRTP_AEAD_AES_128_GCM, key, randomBytes(12))).toBeUndefined();
  });
});
