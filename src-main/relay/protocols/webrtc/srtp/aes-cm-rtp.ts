import { createCipheriv, hash, type Cipheriv } from 'node:crypto';
import { HmacSha1Outer } from './hmac-sha1-outer';
import { SpareBuffer } from './spare-buffer';
import type { SessionKeys } from './srtp-keys';

/** HMAC-SHA1 tags of AES_CM_128_HMAC_SHA1_80 are cut to 80 bits. */
export const CM_TAG_LENGTH = 10;
/** SHA-1's block: HMAC's inner and outer pads are one block each. */
const SHA1_BLOCK = 64;
const AES_BLOCK = 16;

/** One RTP packet to protect: its header (sent in clear, authenticated), its payload and its index. */
export interface RtpToProtect {
  header: Buffer;
  payload: Uint8Array;
  ssrc: number;
  sequence: number;
  rollover: number;
}

/**
 * AES_CM_128_HMAC_SHA1_80 for RTP (RFC 3711), made for many small packets: a cipher object per
 * packet (`aes-128-ctr` with its IV) cost more than the encryption itself, so one AES-ECB
 * cipher lives as long as the keys and encrypts the counter blocks of every packet given at once,
 * in one call; the payloads are XORed with that key stream 32 bits at a time. Each packet is
 * laid out in one buffer as HMAC's inner pad, header, encrypted payload and rollover counter,
 * so its inner hash is one one-shot `hash` over contiguous bytes (no HMAC object per packet)
 * and its outer hash one SHA-1 block in JavaScript (`hmac-sha1-outer.ts`);
 * the tag then takes the place of the rollover counter and the packet is one contiguous datagram.
 */
export class AesCmRtp {
  private readonly ecb: Cipheriv;
  private readonly innerPad = Buffer.alloc(SHA1_BLOCK, 0x36);
  private readonly outer: HmacSha1Outer;
  /** The IV of the packet at hand, read as four native-order words to fill its counter blocks. */
  private readonly ivWords = new Int32Array(4);
  private readonly iv = Buffer.from(this.ivWords.buffer);
  /**
   * The counter blocks, kept from call to call (the cipher has read them when `update` returns)
   * and grown to the largest batch (which the caller keeps small: a viewer's first turn, the
   * whole cached GOP in one batch, left it the size of a GOP for as long as the viewer stayed).
   */
  private counters = new Int32Array(0);
  /** The buffer of a batch whose datagrams have left (`recycle`), for the next batch that fits. */
  private readonly buffers = new SpareBuffer();

  constructor(private readonly keys: SessionKeys) {
    this.ecb = createCipheriv('aes-128-ecb', keys.cipherKey, null);
    this.ecb.setAutoPadding(false);
    for (let i = 0; i < keys.auth.length; i++) this.innerPad[i]! ^= keys.auth[i]!;
    this.outer = new HmacSha1Outer(keys.auth);
  }

  /**
   * Packets `from` to `to` (not included) protected, each an SRTP datagram (header, encrypted payload, tag):
   * views into one buffer for them all, the spare one if it is large enough, else a new one of
   * the batch's size. The buffer is the caller's until it gives it back with `recycle`.
   */
  protect(packets: readonly RtpToProtect[], from = 0, to = packets.length): Buffer[] {
    let bytes = 0;
    let blocks = 0;
    for (let i = from; i < to; i++) {
      const { header, payload } = packets[i]!;
      bytes += slotLength(header.length, payload.length);
      blocks += Math.ceil(payload.length / AES_BLOCK);
    }
    const keyStream = this.keyStream(packets, from, to, blocks);
    const out = this.buffers.take(bytes);
    const outWords = new Int32Array(out.buffer, out.byteOffset, bytes >>> 2);
    const streamWords =
      keyStream.byteOffset % 4 === 0 ? new Int32Array(keyStream.buffer, keyStream.byteOffset, keyStream.length >>> 2) : undefined;
    const datagrams = new Array<Buffer>(to - from);
    let slot = 0;
    let streamAt = 0;
    for (let i = from; i < to; i++) {
      const { header, payload, rollover } = packets[i]!;
      const start = slot + SHA1_BLOCK;
      const body = start + header.length;
      const end = body + payload.length;
      out.set(this.innerPad, slot);
      out.set(header, start);
      out.set(payload, body);
      xorKeyStream(out, outWords, body, payload.length, keyStream, streamWords, streamAt);
      out.writeUInt32BE(rollover >>> 0, end);
      // RFC 3711 4.2: the tag covers the header, the encrypted payload and the rollover counter.
      this.outer.digestHex(hash('sha1', out.subarray(slot, end + 4), 'hex'), out, end, CM_TAG_LENGTH);
      datagrams[i - from] = out.subarray(start, end + CM_TAG_LENGTH);
      slot += slotLength(header.length, payload.length);
      streamAt += Math.ceil(payload.length / AES_BLOCK) * AES_BLOCK;
    }
    return datagrams;
  }

  /**
   * Gives back the buffer of a batch once all its datagrams have left (the socket called back for
   * the last one sent): the next batch is written into it. Nothing else may hold its bytes.
   */
  recycle(datagram: Buffer): void {
    this.buffers.give(datagram);
  }

  /**
   * The counter blocks of every packet, encrypted in one call. RFC 3711 4.1.1: a packet's IV is
   * (salt * 2^16) XOR (SSRC * 2^64) XOR (index * 2^16), index = ROC || SEQ; its last two bytes
   * are zero and count the packet's blocks.
   */
  private keyStream(packets: readonly RtpToProtect[], from: number, to: number, blocks: number): Buffer {
    if (this.counters.length < blocks * 4) this.counters = new Int32Array(blocks * 4);
    const { iv, ivWords, counters } = this;
    let word = 0;
    for (let i = from; i < to; i++) {
      const { payload, ssrc, sequence, rollover } = packets[i]!;
      iv.fill(0);
      iv.writeUInt32BE(ssrc >>> 0, 4);
      iv.writeUInt32BE(rollover >>> 0, 8);
      iv.writeUInt16BE(sequence & 0xffff, 12);
      for (let b = 0; b < 14; b++) iv[b]! ^= this.keys.salt[b]!;
      const [w0, w1, w2, w3] = ivWords as unknown as [number, number, number, number];
      const n = Math.ceil(payload.length / AES_BLOCK);
      for (let k = 0; k < n; k++, word += 4) {
        counters[word] = w0;
        counters[word + 1] = w1;
        counters[word + 2] = w2;
        // Bytes 14 and 15 of the block, the block's number, big-endian in native-order words.
        counters[word + 3] = w3 | (((k >>> 8) & 0xff) << (littleEndian ? 16 : 8)) | ((k & 0xff) << (littleEndian ? 24 : 0));
      }
    }
    return this.ecb.update(new Uint8Array(counters.buffer, 0, blocks * AES_BLOCK));
  }
}

const littleEndian = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/**
 * A packet's room in the shared buffer: inner pad, header, payload and the tag (which first
 * holds the rollover counter), rounded up to 32 bits so the next payload starts aligned (RTP
 * headers are whole 32-bit words).
 */
function slotLength(header: number, payload: number): number {
  return (SHA1_BLOCK + header + payload + CM_TAG_LENGTH + 3) & ~3;
}

/** XORs `length` bytes of the key stream from `streamAt` into `out` from `at`, a word at a time where both are aligned. */
function xorKeyStream(
  out: Buffer,
  outWords: Int32Array,
  at: number,
  length: number,
  stream: Buffer,
  streamWords: Int32Array | undefined,
  streamAt: number,
): void {
  let done = 0;
  if (streamWords && at % 4 === 0) {
    const words = length >>> 2;
    const o = at >>> 2;
    const s = streamAt >>> 2;
    for (let w = 0; w < words; w++) outWords[o + w]! ^= streamWords[s + w]!;
    done = words << 2;
  }
  for (let b = done; b < length; b++) out[at + b]! ^= stream[streamAt + b]!;
}
