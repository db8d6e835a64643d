import { describe, expect, it } from 'vitest';
import { loadRelayNative } from '../../../native/native-addon';
import { SRTP_AEAD_AES_128_GCM, SRTP_AES128_CM_HMAC_SHA1_80 } from './srtp-keys';
import { viewerSrtpProfiles } from './viewer-srtp-profile';

describe("the SRTP profiles offered to a viewer's DTLS handshake", () => {
  it('are AES-GCM then AES-CM where the addon has AES-GCM, and AES-CM alone without the addon', () => {
    expect(viewerSrtpProfiles(undefined)).toEqual([SRTP_AES128_CM_HMAC_SHA1_80]);
    const native = loadRelayNative();
    if (native?.srtpGcm) expect(viewerSrtpProfiles(native)).toEqual([SRTP_AEAD_AES_128_GCM, SRTP_AES128_CM_HMAC_SHA1_80]);
    if (native) expect(viewerSrtpProfiles({ ...native, srtpGcm: false })).toEqual([SRTP_AES128_CM_HMAC_SHA1_80]);
  });
});
