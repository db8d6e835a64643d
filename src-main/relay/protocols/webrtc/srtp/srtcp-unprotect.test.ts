import { createHmac, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { deriveSessionKeys, SRTP_AEAD_AES_128_GCM, SRTP_AES128_CM_HMAC_SHA1_80, srtpProfile } from './srtp-keys';
import { SrtcpUnprotector } from './srtcp-unprotect';
import { SrtpProtector } from './srtp-protect';
import { loadRelayNative } from '../../../native/native-addon';

const report = (n: number) =>
  Buffer.from(`81c90007 0000001${n} cafe0001 0c000022 00000007 00000001 00000000 00000000`.replace(/\s+/g, ''), 'hex');

// In the native addon (built on Linux by `npm install`) and in Node's crypto.
describe.each([
  ['native addon', loadRelayNative()?.srtpCm ? loadRelayNative()! : undefined],
  ["Node's crypto", null],
] as const)('SRTCP from a viewer (%s)', (_name, native) => {
  const key = randomBytes(16);
  const salt = randomBytes(14);
  const viewer = SrtpProtector.fromMaster(SRTP_AES128_CM_HMAC_SHA1_80, key, salt, null);
  const sealed = (index: number, n = 1) => Buffer.concat(viewer.protectRtcp(report(n), index));

  it('opens what the viewer sealed, and refuses another key, a changed byte and a replay', () => {
    const relay = SrtcpUnprotector.fromMaster(SRTP_AES128_CM_HMAC_SHA1_80, key, salt, native ?? null)!;
    expect(relay.unprotect(sealed(1))).toEqual(report(1));
    expect(relay.unprotect(sealed(1))).toBeUndefined();
    const stranger = SrtcpUnprotector.fromMaster(SRTP_AES128_CM_HMAC_SHA1_80, randomBytes(16), salt, native ?? null)!;
    expect(stranger.unprotect(sealed(2))).toBeUndefined();
    const changed = sealed(3);
    changed[9]! ^= 0x40;
    expect(relay.unprotect(changed)).toBeUndefined();
    expect(relay.unprotect(sealed(3, 3))).toEqual(report(3));
    // Too short to hold a header, an index and a tag.
    expect(relay.unprotect(sealed(4).subarray(0, 21))).toBeUndefined();
    // Sent unencrypted (E clear): authentic, taken as it is.
    const clear = Buffer.concat([report(5), Buffer.from([0, 0, 0, 9])]);
    const tagged = Buffer.concat([
      clear,
      createHmac('sha1', deriveSessionKeys(srtpProfile(SRTP_AES128_CM_HMAC_SHA1_80), key, salt).rtcp.auth)
        .update(clear)
        .digest()
        .subarray(0, 10),
    ]);
    expect(relay.unprotect(tagged)).toEqual(report(5));
  });

  it('takes late packets within 64 indices once each, and none further back', () => {
    const relay = SrtcpUnprotector.fromMaster(SRTP_AES128_CM_HMAC_SHA1_80, key, salt, native ?? null)!;
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

  it('reads AES-GCM in the addon (as the viewer sealed it, refusing changes and replays), and leaves it to werift without', () => {
    const gcmSalt = randomBytes(12);
    const relay = SrtcpUnprotector.fromMaster(SRTP_AEAD_AES_128_GCM, key, gcmSalt, native ?? null);
    if (!native) return expect(relay).toBeUndefined();
    const gcmViewer = SrtpProtector.fromMaster(SRTP_AEAD_AES_128_GCM, key, gcmSalt, null);
    const sealedGcm = (index: number, n = 1) => Buffer.concat(gcmViewer.protectRtcp(report(n), index));
    expect(relay!.unprotect(sealedGcm(7))).toEqual(report(1));
    expect(relay!.unprotect(sealedGcm(7))).toBeUndefined();
    const changed = sealedGcm(8, 2);
    changed[12]! ^= 1;
    const before = Buffer.from(changed);
    expect(relay!.unprotect(changed)).toBeUndefined();
    // A forged packet is left as it came.
    expect(changed).toEqual(before);
    expect(relay!.unprotect(sealedGcm(8, 2))).toEqual(report(2));
    expect(relay!.unprotect(sealedGcm(9).subarray(0, 27))).toBeUndefined();
  });
});
