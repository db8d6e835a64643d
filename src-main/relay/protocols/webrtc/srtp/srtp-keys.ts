import { createCipheriv, createSecretKey, type KeyObject } from 'node:crypto';

/** DTLS-SRTP protection profiles (RFC 5764 4.1.2, RFC 7714 14.2), as the DTLS handshake names them. */
export const SRTP_AES128_CM_HMAC_SHA1_80 = 0x0001;
export const SRTP_AEAD_AES_128_GCM = 0x0007;
export const SRTP_AEAD_AES_256_GCM = 0x0008;
/** AES-GCM's tag after each SRTP and SRTCP payload (RFC 7714). */
export const GCM_TAG_LENGTH = 16;

export interface SrtpProfile {
  id: number;
  /** Master and session cipher key, in bytes. */
  keyLength: 16 | 32;
  /** Master and session salt, in bytes. */
  saltLength: 12 | 14;
  /** AEAD (AES-GCM, RFC 7714): the cipher authenticates; otherwise HMAC-SHA1 over the packet, cut to 80 bits. */
  aead: boolean;
}

const PROFILES: readonly SrtpProfile[] = [
  { id: SRTP_AES128_CM_HMAC_SHA1_80, keyLength: 16, saltLength: 14, aead: false },
  { id: SRTP_AEAD_AES_128_GCM, keyLength: 16, saltLength: 12, aead: true },
  { id: SRTP_AEAD_AES_256_GCM, keyLength: 32, saltLength: 12, aead: true },
];

export function srtpProfile(id: number): SrtpProfile {
  const found = PROFILES.find((p) => p.id === id);
  if (!found) throw new Error(`SRTP protection profile 0x${id.toString(16).padStart(4, '0')} is not supported`);
  return found;
}

/** One direction's session keys for RTP or RTCP. */
export interface SessionKeys {
  /** Raw bytes, for tests and for comparing with other implementations. */
  key: Buffer;
  salt: Buffer;
  /** HMAC-SHA1 key (20 bytes); empty for AEAD profiles. */
  auth: Buffer;
  /**
   * The same keys imported once: handing Node's crypto a KeyObject instead of raw bytes spares
   * OpenSSL a key import per packet (about 15 µs each for a cipher and an HMAC on a 2-core machine).
   */
  cipherKey: KeyObject;
  authKey?: KeyObject;
}

/**
 * RFC 3711 4.3.1's key derivation with a key derivation rate of 0 (as DTLS-SRTP has it): the
 * master key keys AES in counter mode, whose IV is the master salt with the label XORed into
 * its eighth byte, shifted left 16 bits. AEAD profiles use the same function (RFC 7714 11) with
 * their 12-byte salt padded to 14 with zeros; AES-256 profiles key it with their 32-byte key.
 */
function deriveKey(masterKey: Uint8Array, masterSalt: Uint8Array, label: number, length: number): Buffer {
  const iv = Buffer.alloc(16);
  iv.set(masterSalt.subarray(0, 14));
  iv[7]! ^= label;
  const cipher = createCipheriv(masterKey.length === 32 ? 'aes-256-ctr' : 'aes-128-ctr', masterKey, iv);
  return cipher.update(Buffer.alloc(length));
}

/** Session keys as given (RFC test vectors give them so), imported for Node's crypto. */
export function importSessionKeys(key: Buffer, salt: Buffer, auth: Buffer = Buffer.alloc(0)): SessionKeys {
  return { key, salt, auth, cipherKey: createSecretKey(key), ...(auth.length > 0 ? { authKey: createSecretKey(auth) } : {}) };
}

function sessionKeys(profile: SrtpProfile, masterKey: Uint8Array, masterSalt: Uint8Array, base: 0 | 3): SessionKeys {
  const key = deriveKey(masterKey, masterSalt, base, profile.keyLength);
  const auth = profile.aead ? undefined : deriveKey(masterKey, masterSalt, base + 1, 20);
  return importSessionKeys(key, deriveKey(masterKey, masterSalt, base + 2, profile.saltLength), auth);
}

/** The session keys of one side of a DTLS-SRTP association (labels 0-2 for SRTP, 3-5 for SRTCP). */
export function deriveSessionKeys(
  profile: SrtpProfile,
  masterKey: Uint8Array,
  masterSalt: Uint8Array,
): { rtp: SessionKeys; rtcp: SessionKeys } {
  if (masterKey.length !== profile.keyLength)
    throw new Error(`SRTP master key of ${masterKey.length} bytes, the profile needs ${profile.keyLength}`);
  if (masterSalt.length !== profile.saltLength)
    throw new Error(`SRTP master salt of ${masterSalt.length} bytes, the profile needs ${profile.saltLength}`);
  return { rtp: sessionKeys(profile, masterKey, masterSalt, 0), rtcp: sessionKeys(profile, masterKey, masterSalt, 3) };
}
