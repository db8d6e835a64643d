import { createCipheriv, createHmac } from 'node:crypto';
import { deriveSessionKeys, srtpProfile, type SessionKeys, type SrtpProfile } from './srtp-keys';

/** HMAC-SHA1 tags of AES_CM_128_HMAC_SHA1_80 are cut to 80 bits; AES-GCM's are 128 bits. */
const CM_TAG_LENGTH = 10;
/** SRTCP packets carry E (encrypted) and a 31-bit index after the payload (RFC 3711 3.4). */
const SRTCP_ENCRYPTED = 0x80000000;

/**
 * The sending side of an SRTP association in Node's own crypto (OpenSSL): AES counter mode with
 * an HMAC-SHA1 tag (RFC 3711), or AES-GCM (RFC 7714). A packet comes out as the parts of one
 * datagram (header, encrypted payload, tag), which a UDP socket sends gathered: the payload is
 * encrypted into its one new buffer and nothing is copied after that.
 */
export class SrtpProtector {
  private readonly rtp: SessionKeys;
  private readonly rtcp: SessionKeys;

  constructor(
    readonly profile: SrtpProfile,
    keys: { rtp: SessionKeys; rtcp: SessionKeys },
  ) {
    this.rtp = keys.rtp;
    this.rtcp = keys.rtcp;
  }

  /** The protector of one side of a DTLS-SRTP association: the profile it chose and that side's master key and salt. */
  static fromMaster(profileId: number, masterKey: Uint8Array, masterSalt: Uint8Array): SrtpProtector {
    const profile = srtpProfile(profileId);
    return new SrtpProtector(profile, deriveSessionKeys(profile, masterKey, masterSalt));
  }

  /** Bytes an SRTP packet has beyond its RTP packet. */
  get rtpOverhead(): number {
    return this.profile.aead ? 16 : CM_TAG_LENGTH;
  }

  /**
   * An RTP packet protected: `header` is sent in clear and authenticated, `payload` encrypted;
   * `rollover` is the sender's count of sequence number wraps (RFC 3711 3.3.1).
   */
  protectRtp(header: Buffer, payload: Uint8Array, ssrc: number, sequenceNumber: number, rollover: number): Buffer[] {
    if (this.profile.aead) {
      // RFC 7714 8.1: IV = (00 00 || SSRC || ROC || SEQ) XOR salt.
      const iv = Buffer.allocUnsafe(12);
      iv.writeUInt16BE(0, 0);
      iv.writeUInt32BE(ssrc >>> 0, 2);
      iv.writeUInt32BE(rollover >>> 0, 6);
      iv.writeUInt16BE(sequenceNumber & 0xffff, 10);
      xorInto(iv, this.rtp.salt);
      const cipher = createCipheriv(this.gcm, this.rtp.cipherKey, iv);
      cipher.setAAD(header);
      const encrypted = cipher.update(payload);
      cipher.final();
      return [header, encrypted, cipher.getAuthTag()];
    }
    // RFC 3711 4.1.1: IV = (salt * 2^16) XOR (SSRC * 2^64) XOR (index * 2^16), index = ROC || SEQ.
    const iv = Buffer.alloc(16);
    iv.writeUInt32BE(ssrc >>> 0, 4);
    iv.writeUInt32BE(rollover >>> 0, 8);
    iv.writeUInt16BE(sequenceNumber & 0xffff, 12);
    xorInto(iv, this.rtp.salt);
    const encrypted = createCipheriv('aes-128-ctr', this.rtp.cipherKey, iv).update(payload);
    const roc = Buffer.allocUnsafe(4);
    roc.writeUInt32BE(rollover >>> 0, 0);
    const tag = createHmac('sha1', this.rtp.authKey!).update(header).update(encrypted).update(roc).digest();
    return [header, encrypted, tag.subarray(0, CM_TAG_LENGTH)];
  }

  /** A compound RTCP packet protected and encrypted, with the sender's SRTCP `index` (31 bits, counted per SSRC). */
  protectRtcp(packet: Buffer, index: number): Buffer[] {
    const ssrc = packet.readUInt32BE(4);
    const head = packet.subarray(0, 8);
    const trailer = Buffer.allocUnsafe(4);
    trailer.writeUInt32BE((SRTCP_ENCRYPTED | (index & 0x7fffffff)) >>> 0, 0);
    if (this.profile.aead) {
      // RFC 7714 9.1: IV = (00 00 || SSRC || 00 00 || 0 || index) XOR salt; AAD = header || E || index.
      const iv = Buffer.alloc(12);
      iv.writeUInt32BE(ssrc, 2);
      iv.writeUInt32BE(index & 0x7fffffff, 8);
      xorInto(iv, this.rtcp.salt);
      const cipher = createCipheriv(this.gcm, this.rtcp.cipherKey, iv);
      cipher.setAAD(Buffer.concat([head, trailer]));
      const encrypted = cipher.update(packet.subarray(8));
      cipher.final();
      return [head, encrypted, cipher.getAuthTag(), trailer];
    }
    // RFC 3711 4.1.1 with the SRTCP index in place of the packet index; the tag covers E || index.
    const iv = Buffer.alloc(16);
    iv.writeUInt32BE(ssrc, 4);
    iv.writeUInt16BE((index >>> 16) & 0x7fff, 10);
    iv.writeUInt16BE(index & 0xffff, 12);
    xorInto(iv, this.rtcp.salt);
    const encrypted = createCipheriv('aes-128-ctr', this.rtcp.cipherKey, iv).update(packet.subarray(8));
    const tag = createHmac('sha1', this.rtcp.authKey!).update(head).update(encrypted).update(trailer).digest();
    return [head, encrypted, trailer, tag.subarray(0, CM_TAG_LENGTH)];
  }

  private get gcm(): 'aes-128-gcm' | 'aes-256-gcm' {
    return this.profile.keyLength === 32 ? 'aes-256-gcm' : 'aes-128-gcm';
  }
}

/** XORs `mask` into the first bytes of `target`, in place. */
function xorInto(target: Buffer, mask: Buffer): void {
  for (let i = 0; i < mask.length; i++) target[i]! ^= mask[i]!;
}
