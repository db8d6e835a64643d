import { loadBuiltAddon } from '../../platform/built-addon';

/** What a native SRTP context is to JavaScript: a handle, freed with it. */
export type SrtpCmHandle = { readonly __brand: 'SrtpCmHandle' };

/** What a native AES-GCM SRTP context is to JavaScript: a handle, freed with it. */
export type SrtpGcmHandle = { readonly __brand: 'SrtpGcmHandle' };

/** A fan-out's scratch memory and message tables (one per shared UDP port), freed with its handle. */
export type SrtpFanoutHandle = { readonly __brand: 'SrtpFanoutHandle' };

/** Int32 fields per viewer row of `srtpFanout`: address, port, SSRC, payload type, next sequence number, rollover, packets skipped, unused. */
export const FANOUT_ROW = 8;
/** Int32 fields per packet of `srtpFanout`: payload offset and length in the input, RTP timestamp, marker (0 or 1). */
export const FANOUT_PACKET = 4;
/** `srtpFanout`'s answer when a segmentation-offload message was refused (its datagrams went one by one): ask no more. */
export const FANOUT_SEGMENT_REFUSED = 1;

/** The relay's native helpers for WebRTC and RTSP viewers, compiled from this folder's C (see addon.c). */
export interface RelayNative {
  /** A UDP socket bound to the IPv4 address (a 32-bit number) and port, for dgram's `bind({ fd })`; throws with an errno `code`. */
  bindUdp4(address: number, port: number): number;
  /**
   * `count` datagrams, each `[offset, length]` in `spans`, from `buffer` to one address, in their
   * order, in one system call; with `segment`, runs of equal-sized ones as one segmentation-offload
   * message. Returns how many the kernel took, or a negative errno when it took none.
   */
  sendBatch(fd: number, buffer: ArrayBuffer, spans: Int32Array, count: number, address: number, port: number, segment: boolean): number;
  /** Whether the host's OpenSSL functions were found (else `srtpCmContext` gives undefined). */
  readonly srtpCm: boolean;
  /** AES_CM_128_HMAC_SHA1_80's state for one direction of one session. */
  srtpCmContext(cipherKey: Uint8Array, salt: Uint8Array, authKey: Uint8Array): SrtpCmHandle | undefined;
  /**
   * Packets in `buffer`, each `[start, headerLength, payloadLength, rollover]` in `spans`,
   * encrypted in place and their 10-byte tags written after them. 0, or a negative errno.
   */
  srtpCmProtect(context: SrtpCmHandle, buffer: ArrayBuffer, spans: Int32Array, count: number): number;
  /**
   * SRTCP (with a context made for the session's RTCP keys): the compound RTCP packet at `offset`
   * (`length` bytes in clear, 14 bytes of room after it) encrypted, E and `index` and the tag
   * written after it. The datagram's length, or a negative errno.
   */
  srtcpCmProtect(context: SrtpCmHandle, buffer: ArrayBuffer, offset: number, length: number, index: number): number;
  /**
   * An SRTCP datagram at `offset` checked and decrypted in place: its 31-bit index (the packet in
   * clear is its first `length - 14` bytes), -EBADMSG when not authentic, -EINVAL when malformed.
   */
  srtcpCmUnprotect(context: SrtpCmHandle, buffer: ArrayBuffer, offset: number, length: number): number;
  /** Whether the host's OpenSSL has AES-GCM for the addon (else `srtpGcmContext` gives undefined). */
  readonly srtpGcm: boolean;
  /** AEAD_AES_128_GCM's or AEAD_AES_256_GCM's state (a 16- or 32-byte key, a 12-byte salt) for one direction of one session. */
  srtpGcmContext(key: Uint8Array, salt: Uint8Array): SrtpGcmHandle | undefined;
  /** As `srtpCmProtect`, with AES-GCM: each packet's 16-byte tag after it. */
  srtpGcmProtect(context: SrtpGcmHandle, buffer: ArrayBuffer, spans: Int32Array, count: number): number;
  /** As `srtcpCmProtect`, with AES-GCM (20 bytes of room after the packet: the tag, then E and `index`). */
  srtcpGcmProtect(context: SrtpGcmHandle, buffer: ArrayBuffer, offset: number, length: number, index: number): number;
  /** As `srtcpCmUnprotect`, with AES-GCM: the index, the packet in clear being its first `length - 20` bytes. */
  srtcpGcmUnprotect(context: SrtpGcmHandle, buffer: ArrayBuffer, offset: number, length: number): number;
  /** Scratch memory and message tables for `srtpFanout`. */
  srtpFanoutContext(): SrtpFanoutHandle;
  /**
   * One turn of a track's packets (`count`, FANOUT_PACKET fields each in `packets`, payloads in
   * `input`) to `viewers` viewers (FANOUT_ROW fields each in `rows`, SRTP context in `contexts`):
   * each packet with each viewer's header, protected with its keys, all sent from `fd` in one
   * sendmmsg (with `segment`, runs of equal-sized datagrams as one offload message). Each
   * viewer's datagrams taken (or a negative errno when none) go to `results`. Returns 0,
   * FANOUT_SEGMENT_REFUSED, or -EINVAL (arguments out of bounds, nothing sent).
   */
  srtpFanout(
    fanout: SrtpFanoutHandle,
    fd: number,
    contexts: ReadonlyArray<SrtpCmHandle | SrtpGcmHandle>,
    rows: Int32Array,
    viewers: number,
    input: ArrayBuffer,
    packets: Int32Array,
    count: number,
    segment: boolean,
    results: Int32Array,
  ): number;
  /**
   * `length` bytes of `buffer` from `offset` to a connected TCP socket's descriptor, without
   * blocking: how many the kernel took (0 when its buffer is full), or a negative errno.
   */
  writeStream(fd: number, buffer: ArrayBuffer, offset: number, length: number): number;
}

/**
 * The addon, or undefined where it was not built (not Linux, no C compiler at install) or
 * `RELAY_NATIVE=0` turns it off (to compare, or to rule it out): the relay then sends with
 * Node's dgram one datagram at a time, protects with Node's crypto and writes to TCP viewers
 * through Node's streams.
 */
export function loadRelayNative(env: NodeJS.ProcessEnv = process.env): RelayNative | undefined {
  if (env.RELAY_NATIVE === '0' || process.platform !== 'linux') return undefined;
  return loadBuiltAddon<RelayNative>('relay-native.node', import.meta.url);
}
