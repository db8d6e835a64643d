import { createDecipheriv, createHmac, timingSafeEqual } from 'node:crypto';
import { loadRelayNative, type RelayNative } from '../../../native/native-addon';
import { CM_TAG_LENGTH } from './aes-cm-rtp';
import { deriveSessionKeys, GCM_TAG_LENGTH, srtpProfile, type SessionKeys } from './srtp-keys';

/** The SRTCP trailer: E flag and 31-bit index (RFC 3711 3.4). */
const INDEX_LENGTH = 4;

/** An SRTCP datagram at `offset` of `buffer` checked and opened in place by the addon: its index, or a negative errno. */
type OpenInPlace = (buffer: ArrayBuffer, offset: number, length: number) => number;
/** Indices at most this far below the highest seen are told apart (RFC 3711 3.3.2: at least 64). */
const REPLAY_WINDOW = 64n;

/**
 * The receiving side of SRTCP with AES_CM_128_HMAC_SHA1_80 (RFC 3711 3.4, 4.1.1, 4.2), or with
 * AES-GCM (RFC 7714 9) where the native addon is there: what a viewer sends back (receiver
 * reports, NACKs, picture loss) checked and decrypted in the relay, where werift's path cost about
 * ten times as much per packet. Packets that are not authentic or were seen before (a replayed
 * NACK would make the relay send again) give undefined.
 */
export class SrtcpUnprotector {
  private highest = -1n;
  /** Bit i: index `highest - i` was seen. */
  private seen = 0n;

  private constructor(
    private readonly keys: SessionKeys,
    /** The addon's check and decryption with these keys, where it is built: no cipher or HMAC object per packet. */
    private readonly native?: OpenInPlace,
    /** Bytes after the packet: its tag and the index. */
    private readonly trailer = CM_TAG_LENGTH + INDEX_LENGTH,
  ) {}

  /**
   * The viewer's side of a DTLS-SRTP association; undefined for the AEAD profiles without the
   * addon (werift reads those). `native` is the addon to unprotect with (found by default; null:
   * Node's crypto).
   */
  static fromMaster(
    profileId: number,
    masterKey: Uint8Array,
    masterSalt: Uint8Array,
    native: RelayNative | null = loadRelayNative() ?? null,
  ): SrtcpUnprotector | undefined {
    const profile = srtpProfile(profileId);
    const keys = deriveSessionKeys(profile, masterKey, masterSalt).rtcp;
    if (profile.aead) {
      const context = native?.srtpGcm ? native.srtpGcmContext(keys.key, keys.salt) : undefined;
      if (!native || !context) return undefined;
      const open: OpenInPlace = (buffer, offset, length) => native.srtcpGcmUnprotect(context, buffer, offset, length);
      return new SrtcpUnprotector(keys, open, GCM_TAG_LENGTH + INDEX_LENGTH);
    }
    const context = native?.srtpCm ? native.srtpCmContext(keys.key, keys.salt, keys.auth) : undefined;
    if (!native || !context) return new SrtcpUnprotector(keys);
    return new SrtcpUnprotector(keys, (buffer, offset, length) => native.srtcpCmUnprotect(context, buffer, offset, length));
  }

  /**
   * The compound RTCP packet in clear, or undefined: too short, not authentic, or replayed. With
   * the addon it is decrypted in place (the datagram is the caller's to give up).
   */
  unprotect(datagram: Buffer): Buffer | undefined {
    if (this.native) {
      const clear = datagram.length - this.trailer;
      if (clear < 8) return undefined;
      const index = this.native(datagram.buffer as ArrayBuffer, datagram.byteOffset, datagram.length);
      return index >= 0 && this.fresh(BigInt(index)) ? datagram.subarray(0, clear) : undefined;
    }
    const tagAt = datagram.length - CM_TAG_LENGTH;
    const indexAt = tagAt - INDEX_LENGTH;
    if (indexAt < 8) return undefined;
    const expected = createHmac('sha1', this.keys.authKey!).update(datagram.subarray(0, tagAt)).digest();
    if (!timingSafeEqual(expected.subarray(0, CM_TAG_LENGTH), datagram.subarray(tagAt))) return undefined;
    const word = datagram.readUInt32BE(indexAt);
    const index = word & 0x7fffffff;
    if (!this.fresh(BigInt(index))) return undefined;
    const packet = Buffer.from(datagram.subarray(0, indexAt));
    if (word >>> 31 === 1) {
      const iv = srtcpIv(packet.readUInt32BE(4), index, this.keys.salt);
      createDecipheriv('aes-128-ctr', this.keys.cipherKey, iv).update(packet.subarray(8)).copy(packet, 8);
    }
    return packet;
  }

  /** Whether `index` is new (then remembered): above the highest, or below it within the window and not yet seen. */
  private fresh(index: bigint): boolean {
    if (index > this.highest) {
      const shift = this.highest < 0n ? REPLAY_WINDOW : index - this.highest;
      this.seen = shift >= REPLAY_WINDOW ? 1n : ((this.seen << shift) | 1n) & ((1n << REPLAY_WINDOW) - 1n);
      this.highest = index;
      return true;
    }
    const back = this.highest - index;
    if (back >= REPLAY_WINDOW || (this.seen >> back) & 1n) return false;
    this.seen |= 1n << back;
    return true;
  }
}

/** RFC 3711 4.1.1 with the SRTCP index in place of the packet index: (salt * 2^16) XOR (SSRC * 2^64) XOR (index * 2^16). */
export function srtcpIv(ssrc: number, index: number, salt: Buffer): Buffer {
  const iv = Buffer.alloc(16);
  iv.writeUInt32BE(ssrc >>> 0, 4);
  iv.writeUInt16BE((index >>> 16) & 0x7fff, 10);
  iv.writeUInt16BE(index & 0xffff, 12);
  for (let i = 0; i < salt.length; i++) iv[i]! ^= salt[i]!;
  return iv;
}
