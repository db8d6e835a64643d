import type { RelayNative, SrtpCmHandle } from '../../../native/native-addon';
import { CM_TAG_LENGTH, type RtpToProtect } from './aes-cm-rtp';
import { SpareBuffer } from './spare-buffer';
import type { SessionKeys } from './srtp-keys';

/** Packets in one call to the addon (its own limit; a batch of BATCH_BYTES is far fewer). */
const MAX_PACKETS = 256;

/**
 * AES_CM_128_HMAC_SHA1_80 for RTP in the native addon (`../native/srtp-cm.c`): the batch is laid
 * out here, each packet's header and payload copied into one buffer with room for its tag, and
 * encrypted and tagged in place in one call, the cipher and the hash being OpenSSL's. The same
 * datagrams, byte for byte, as `AesCmRtp` (which protects in JavaScript where the addon is not
 * there) at about a third of its CPU.
 */
export class AesCmRtpNative {
  private readonly buffers = new SpareBuffer();
  private spans = new Int32Array(64 * 4);

  private constructor(
    private readonly addon: RelayNative,
    private readonly context: SrtpCmHandle,
  ) {}

  /** The addon's context for these keys (a track's fan-out protects with it too). */
  get handle(): SrtpCmHandle {
    return this.context;
  }

  /** The native protector for these keys, or undefined where the addon or its OpenSSL functions are not there. */
  static create(addon: RelayNative | undefined, keys: SessionKeys): AesCmRtpNative | undefined {
    // The addon does AES-128 with an 80-bit tag only (what viewers are offered).
    if (!addon?.srtpCm || keys.key.length !== 16 || keys.salt.length !== 14 || keys.auth.length !== 20) return undefined;
    const context = addon.srtpCmContext(keys.key, keys.salt, keys.auth);
    return context ? new AesCmRtpNative(addon, context) : undefined;
  }

  /** As `AesCmRtp.protect`: packets `from` to `to` (not included), each a datagram in one shared buffer, the caller's until `recycle`. */
  protect(packets: readonly RtpToProtect[], from = 0, to = packets.length): Buffer[] {
    const count = to - from;
    if (count > MAX_PACKETS) return [...this.protect(packets, from, from + MAX_PACKETS), ...this.protect(packets, from + MAX_PACKETS, to)];
    let bytes = 0;
    for (let i = from; i < to; i++) bytes += slotLength(packets[i]!.header.length, packets[i]!.payload.length);
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
      datagrams[i] = out.subarray(slot, slot + header.length + payload.length + CM_TAG_LENGTH);
      slot += slotLength(header.length, payload.length);
    }
    const result = this.addon.srtpCmProtect(this.context, out.buffer as ArrayBuffer, spans, count);
    if (result !== 0) throw new Error(`SRTP protection failed (${result})`);
    return datagrams;
  }

  /** As `AesCmRtp.recycle`: the batch's buffer holds the next batch once all its datagrams have left. */
  recycle(datagram: Buffer): void {
    this.buffers.give(datagram);
  }
}

/** A packet's room in the shared buffer: header, payload and tag, rounded up to 32 bits. */
function slotLength(header: number, payload: number): number {
  return (header + payload + CM_TAG_LENGTH + 3) & ~3;
}
