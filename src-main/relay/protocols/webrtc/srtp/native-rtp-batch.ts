import type { RelayNative, SrtpCmHandle, SrtpGcmHandle } from '../../../native/native-addon';
import { CM_TAG_LENGTH, type RtpToProtect } from './aes-cm-rtp';
import { SpareBuffer } from './spare-buffer';
import { GCM_TAG_LENGTH, type SessionKeys } from './srtp-keys';

/** Packets in one call to the addon (its own limit; a batch of BATCH_BYTES is far fewer). */
const MAX_PACKETS = 256;

/** The addon's call that protects a batch laid out in `buffer`: 0, or a negative errno. */
type ProtectBatch = (buffer: ArrayBuffer, spans: Int32Array, count: number) => number;

/**
 * RTP protection in the native addon, a batch in one call: AES_CM_128_HMAC_SHA1_80
 * (`../../../native/srtp-cm.c`) or AEAD_AES_128_GCM and AEAD_AES_256_GCM (`srtp-gcm.c`), with
 * the host's OpenSSL. The batch is laid out here, each packet's header and payload copied into
 * one buffer with room for its tag, then encrypted and tagged in place. The same datagrams, byte
 * for byte, as `AesCmRtp` and the per-packet AES-GCM of Node's crypto (used where the addon is not
 * there), at a fraction of their CPU.
 */
export class NativeRtpBatch {
  private readonly buffers = new SpareBuffer();
  private spans = new Int32Array(64 * 4);

  private constructor(
    private readonly protectBatch: ProtectBatch,
    /** The addon's context for these keys (a track's fan-out protects with it too). */
    readonly handle: SrtpCmHandle | SrtpGcmHandle,
    /** Bytes of each packet's tag. */
    readonly tagLength: number,
  ) {}

  /** The native AES-CM protector for these keys, or undefined where the addon or its OpenSSL functions are not there. */
  static aesCm(addon: RelayNative | undefined, keys: SessionKeys): NativeRtpBatch | undefined {
    // The addon does AES-128 with an 80-bit tag only (what viewers are offered).
    if (!addon?.srtpCm || keys.key.length !== 16 || keys.salt.length !== 14 || keys.auth.length !== 20) return undefined;
    const context = addon.srtpCmContext(keys.key, keys.salt, keys.auth);
    if (!context) return undefined;
    return new NativeRtpBatch((buffer, spans, count) => addon.srtpCmProtect(context, buffer, spans, count), context, CM_TAG_LENGTH);
  }

  /** The native AES-GCM protector for these keys (16- or 32-byte key, 12-byte salt), or undefined where it cannot be made. */
  static aesGcm(addon: RelayNative | undefined, keys: SessionKeys): NativeRtpBatch | undefined {
    if (!addon?.srtpGcm || keys.salt.length !== 12 || (keys.key.length !== 16 && keys.key.length !== 32)) return undefined;
    const context = addon.srtpGcmContext(keys.key, keys.salt);
    if (!context) return undefined;
    return new NativeRtpBatch((buffer, spans, count) => addon.srtpGcmProtect(context, buffer, spans, count), context, GCM_TAG_LENGTH);
  }

  /** Packets `from` to `to` (not included), each a datagram in one shared buffer, the caller's until `recycle`. */
  protect(packets: readonly RtpToProtect[], from = 0, to = packets.length): Buffer[] {
    const count = to - from;
    if (count > MAX_PACKETS) return [...this.protect(packets, from, from + MAX_PACKETS), ...this.protect(packets, from + MAX_PACKETS, to)];
    let bytes = 0;
    for (let i = from; i < to; i++) bytes += this.slotLength(packets[i]!.header.length, packets[i]!.payload.length);
    const out = this.buffers.take(bytes);
    if (this.spans.length < count * 4) this.spans = new Int32Array(count * 4);
    const spans = this.spans;
    const datagrams = new Array<Buffer>(count);
    let slot = 0;
    for (let i = 0; i < count; i++) {
      const { header, payload, rollover } = packets[from + i]!;
      out.set(header, slot);
      out.set(payload, slot + header.length);
      spans[4 * i] = out.byteOffset + slot;
      spans[4 * i + 1] = header.length;
      spans[4 * i + 2] = payload.length;
      spans[4 * i + 3] = rollover | 0;
      datagrams[i] = out.subarray(slot, slot + header.length + payload.length + this.tagLength);
      slot += this.slotLength(header.length, payload.length);
    }
    const result = this.protectBatch(out.buffer as ArrayBuffer, spans, count);
    if (result !== 0) throw new Error(`SRTP protection failed (${result})`);
    return datagrams;
  }

  /** The batch's buffer holds the next batch once all its datagrams have left. */
  recycle(datagram: Buffer): void {
    this.buffers.give(datagram);
  }

  /** A packet's room in the shared buffer: header, payload and tag, rounded up to 32 bits. */
  private slotLength(header: number, payload: number): number {
    return (header + payload + this.tagLength + 3) & ~3;
  }
}
