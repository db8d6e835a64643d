import { createCipheriv, createHmac } from 'node:crypto';
import { loadRelayNative, type RelayNative, type SrtpCmHandle, type SrtpGcmHandle } from '../../../native/native-addon';
import { AesCmRtp, CM_TAG_LENGTH, type RtpToProtect } from './aes-cm-rtp';
import { NativeRtpBatch } from './native-rtp-batch';
import { srtcpIv } from './srtcp-unprotect';
import { deriveSessionKeys, GCM_TAG_LENGTH, srtpProfile, type SessionKeys, type SrtpProfile } from './srtp-keys';

/** An SRTP or SRTCP datagram: one buffer, or its parts, which a UDP socket sends gathered. */
export type Datagram = Buffer | Buffer[];
/** SRTCP packets carry E (encrypted) and a 31-bit index after the payload (RFC 3711 3.4). */
const SRTCP_ENCRYPTED = 0x80000000;

/**
 * The sending side of an SRTP association: AES counter mode with an HMAC-SHA1 tag (RFC 3711), or
 * AES-GCM (RFC 7714). Where the native addon is there, both protect a batch of RTP packets at once
 * into one buffer (`native-rtp-batch.ts`) and SRTCP in place, with the host's OpenSSL. Without
 * it, AES-CM batches in JavaScript (`aes-cm-rtp.ts`), and AES-GCM, which needs a cipher object of
 * Node's crypto per packet, gives each packet as the parts of its datagram (header, encrypted
 * payload, tag), gathered by the socket, so nothing is copied after the encryption.
 */
export class SrtpProtector {
  private readonly rtp: SessionKeys;
  private readonly rtcp: SessionKeys;
  /** RTP in batches: natively (either profile), or AES-CM in JavaScript; undefined: AES-GCM a packet at a time in Node's crypto. */
  private readonly batch: AesCmRtp | NativeRtpBatch | undefined;
  /** SRTCP in the addon: the packet at `offset` of `buffer` protected in place; the datagram's length. */
  private readonly rtcpNative: ((buffer: ArrayBuffer, offset: number, length: number, index: number) => number) | undefined;

  constructor(
    readonly profile: SrtpProfile,
    keys: { rtp: SessionKeys; rtcp: SessionKeys },
    native?: RelayNative,
  ) {
    this.rtp = keys.rtp;
    this.rtcp = keys.rtcp;
    this.batch = profile.aead
      ? NativeRtpBatch.aesGcm(native, keys.rtp)
      : (NativeRtpBatch.aesCm(native, keys.rtp) ?? new AesCmRtp(keys.rtp));
    this.rtcpNative = nativeRtcp(profile, keys.rtcp, native);
  }

  /**
   * The protector of one side of a DTLS-SRTP association: the profile it chose and that side's
   * master key and salt; `native` is the addon to protect with (found by default; null: JavaScript).
   */
  static fromMaster(
    profileId: number,
    masterKey: Uint8Array,
    masterSalt: Uint8Array,
    native: RelayNative | null = loadRelayNative() ?? null,
  ): SrtpProtector {
    const profile = srtpProfile(profileId);
    return new SrtpProtector(profile, deriveSessionKeys(profile, masterKey, masterSalt), native ?? undefined);
  }

  /** Whether RTP is protected by the native addon. */
  get native(): boolean {
    return this.batch instanceof NativeRtpBatch;
  }

  /** The addon's context for RTP, where the addon protects it (a track's fan-out uses it). */
  get nativeContext(): SrtpCmHandle | SrtpGcmHandle | undefined {
    return this.batch instanceof NativeRtpBatch ? this.batch.handle : undefined;
  }

  /** Bytes an SRTP packet has beyond its RTP packet. */
  get rtpOverhead(): number {
    return this.profile.aead ? GCM_TAG_LENGTH : CM_TAG_LENGTH;
  }

  /**
   * An RTP packet protected, as the parts of its datagram (header, encrypted payload, tag):
   * `header` is sent in clear and authenticated, `payload` encrypted; `rollover` is the sender's
   * count of sequence number wraps (RFC 3711 3.3.1).
   */
  protectRtp(header: Buffer, payload: Uint8Array, ssrc: number, sequenceNumber: number, rollover: number): Buffer[] {
    const packet = { header, payload, ssrc, sequence: sequenceNumber, rollover };
    if (!this.batch) return this.protectGcm(packet);
    const datagram = this.batch.protect([packet])[0]!;
    const tagAt = header.length + payload.length;
    return [datagram.subarray(0, header.length), datagram.subarray(header.length, tagAt), datagram.subarray(tagAt)];
  }

  /** Packets `from` to `to` (not included) protected, one datagram each, in their order. */
  protectRtpBatch(packets: readonly RtpToProtect[], from: number, to: number): Datagram[] {
    if (this.batch) return this.batch.protect(packets, from, to);
    const datagrams = new Array<Datagram>(to - from);
    for (let i = from; i < to; i++) datagrams[i - from] = this.protectGcm(packets[i]!);
    return datagrams;
  }

  /**
   * A batch's datagrams have all left (the socket called back for the last one): their buffer
   * holds the next batch (not for AES-GCM in Node's crypto, which makes new ones).
   */
  recycle(last: Datagram): void {
    if (this.batch && !Array.isArray(last)) this.batch.recycle(last);
  }

  /** RFC 7714 8.1: IV = (00 00 || SSRC || ROC || SEQ) XOR salt; the header is the AAD. */
  private protectGcm({ header, payload, ssrc, sequence, rollover }: RtpToProtect): Buffer[] {
    const iv = Buffer.allocUnsafe(12);
    iv.writeUInt16BE(0, 0);
    iv.writeUInt32BE(ssrc >>> 0, 2);
    iv.writeUInt32BE(rollover >>> 0, 6);
    iv.writeUInt16BE(sequence & 0xffff, 10);
    xorInto(iv, this.rtp.salt);
    const cipher = createCipheriv(this.gcm, this.rtp.cipherKey, iv);
    cipher.setAAD(header);
    const encrypted = cipher.update(payload);
    cipher.final();
    // The header is the caller's and may be rewritten for its next packet while this one waits to be sent.
    return [Buffer.from(header), encrypted, cipher.getAuthTag()];
  }

  /** A compound RTCP packet protected and encrypted, with the sender's SRTCP `index` (31 bits, counted per SSRC). */
  protectRtcp(packet: Buffer, index: number): Buffer[] {
    if (this.rtcpNative) {
      // One buffer with room for the tag and E || index, encrypted and tagged in place.
      const datagram = Buffer.allocUnsafe(packet.length + 4 + this.rtpOverhead);
      packet.copy(datagram);
      const length = this.rtcpNative(datagram.buffer as ArrayBuffer, datagram.byteOffset, packet.length, index);
      if (length !== datagram.length) throw new Error(`SRTCP protection failed (${length})`);
      return [datagram];
    }
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
    // The tag covers E || index.
    const iv = srtcpIv(ssrc, index, this.rtcp.salt);
    const encrypted = createCipheriv('aes-128-ctr', this.rtcp.cipherKey, iv).update(packet.subarray(8));
    const tag = createHmac('sha1', this.rtcp.authKey!).update(head).update(encrypted).update(trailer).digest();
    return [head, encrypted, trailer, tag.subarray(0, CM_TAG_LENGTH)];
  }

  private get gcm(): 'aes-128-gcm' | 'aes-256-gcm' {
    return this.profile.keyLength === 32 ? 'aes-256-gcm' : 'aes-128-gcm';
  }
}

/** SRTCP protection in the addon for this profile and these RTCP keys, where it is there. */
function nativeRtcp(
  profile: SrtpProfile,
  keys: SessionKeys,
  native: RelayNative | undefined,
): ((buffer: ArrayBuffer, offset: number, length: number, index: number) => number) | undefined {
  if (profile.aead) {
    const context = native?.srtpGcm ? native.srtpGcmContext(keys.key, keys.salt) : undefined;
    return native && context && ((buffer, offset, length, index) => native.srtcpGcmProtect(context, buffer, offset, length, index));
  }
  const context = native?.srtpCm ? native.srtpCmContext(keys.key, keys.salt, keys.auth) : undefined;
  return native && context && ((buffer, offset, length, index) => native.srtcpCmProtect(context, buffer, offset, length, index));
}

/** XORs `mask` into the first bytes of `target`, in place. */
function xorInto(target: Buffer, mask: Buffer): void {
  for (let i = 0; i < mask.length; i++) target[i]! ^= mask[i]!;
}
