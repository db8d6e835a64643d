import { randomInt } from 'node:crypto';
import type { RtpPacket } from '../../../core/rtp-packet';
import type { RtpToProtect } from './aes-cm-rtp';
import { PictureTurn } from './picture-hold';
import type { FanoutMember, FanoutPort, FanoutRoute } from './srtp-fanout';
import type { Datagram, SrtpProtector } from './srtp-protect';

/**
 * Sends one SRTP or SRTCP datagram. `sent`, if given, is called once the datagram and every one
 * sent before it have left (the socket no longer holds their bytes); a path that cannot tell
 * never calls it.
 */
export type Transmit = (datagram: Datagram, sent?: () => void) => void;
/** Sends a batch's datagrams in their order; `sent` once every one has left. */
type TransmitAll = (datagrams: readonly Datagram[], sent: () => void) => void;
/**
 * A viewer's way out: datagrams one at a time (reports) and in batches (a turn's packets); and,
 * where its route is the shared UDP port with the native addon, that port's fan-outs and the
 * viewer's address on it.
 */
export interface DatagramPath {
  one: Transmit;
  all: TransmitAll;
  fanout?: () => { port: FanoutPort; route: FanoutRoute } | undefined;
}

/** A path that sends a batch one datagram after another (where there is no way to send many at once). */
function oneByOne(transmit: Transmit): DatagramPath {
  return {
    one: transmit,
    all: (datagrams, sent) => {
      const last = datagrams.length - 1;
      for (let i = 0; i < last; i++) transmit(datagrams[i]!);
      // Sends leave in order: once the last one has, so have the others.
      transmit(datagrams[last]!, sent);
    },
  };
}

/** What a protected packet's entry holds until its next use, instead of the stream's payload. */
const EMPTY = new Uint8Array(0);
/** Sent packets kept for a viewer's NACKs (a power of two). */
const HISTORY = 128;
/**
 * Payload bytes protected in one call, at most: a picture of a 2 Mbit/s stream is one batch, a
 * keyframe a few, and each viewer's buffers stay this size (the cached GOP a viewer starts with,
 * in one batch, grew them to the GOP's size for the viewer's lifetime: about 1 MiB a viewer).
 */
export const BATCH_BYTES = 16 * 1024;
/** Seconds from the NTP epoch (1900) to the Unix epoch. */
const NTP_UNIX_OFFSET = 2_208_988_800;

/**
 * One track of one viewer on the wire: its own SSRC (the one the answer announced) and its own
 * consecutive sequence numbers, so the rollover counter is simply the count of wraps and a
 * camera that reconnects or a parameter set put in front of an IDR never makes a gap. Each
 * packet is protected once, and kept for a NACK; the counts feed sender reports.
 *
 * Packets given in one event-loop turn (a picture, mostly) wait for its end and are protected
 * together (AES-CM: one cipher call for all their key streams, one buffer for all their
 * datagrams), then sent in their order, as the RTSP server's TCP writer gathers a turn's frames.
 */
export class SrtpTrackSender {
  private sequence: number;
  private rolloverCount = 0;
  // The packets as given (their payloads are the stream's, shared by every viewer), not as
  // protected: a NACK is rare, and 128 protected copies per viewer kept for half a second each
  // outlived the young generation and made the collector's work grow with the viewers.
  private readonly history: Array<RtpPacket | undefined> = new Array<RtpPacket | undefined>(HISTORY);
  private readonly historySequence = new Int32Array(HISTORY).fill(-1);
  private readonly historyRollover = new Uint32Array(HISTORY);
  private packets = 0;
  private octets = 0;
  private lastTimestamp = 0;
  private lastSentAt = 0;
  private rtcpIndex = 0;
  resent = 0;
  /**
   * The turn's packets, `pending[0..pendingCount)`; the entries, and each one's header buffer,
   * are reused from turn to turn (a header sliced from Node's shared 8 KiB pool, kept to the next
   * turn, would keep that whole pool alive with it).
   */
  private readonly pending: RtpToProtect[] = [];
  private pendingCount = 0;
  /** When the pending packets go: at the turn's end, an open picture held up to `HOLD_MS`. */
  private readonly turn: PictureTurn;
  private readonly path: DatagramPath;
  /** The track's fan-out, once this viewer joined it: it sends the live packets and keeps them for NACKs. */
  private member: FanoutMember | undefined;

  constructor(
    readonly ssrc: number,
    readonly payloadType: number,
    private readonly clockRate: number,
    private readonly protector: SrtpProtector,
    path: Transmit | DatagramPath,
    private readonly cname = '',
    firstSequence = randomInt(0, 0x8000),
    /** Video: an open picture's packets wait up to `HOLD_MS` for its last one (audio packets carry no picture end). */
    private readonly holdPictures = false,
  ) {
    this.path = typeof path === 'function' ? oneByOne(path) : path;
    this.turn = new PictureTurn(
      holdPictures,
      () => this.pendingCount > 0,
      () => this.flush(),
    );
    this.sequence = firstSequence;
  }

  /** The sequence number the next packet gets. */
  get nextSequence(): number {
    return this.sequence;
  }

  /** How often the sequence number wrapped (the next packet's rollover counter). */
  get rollover(): number {
    return this.rolloverCount;
  }

  /**
   * Joins the fan-out of the stream track `key` (one per track on the shared UDP port), if this
   * viewer's route and protection allow it: what this sender still holds goes first, and from
   * then on the fan-out sends this viewer's live packets, numbered on from here. Undefined where
   * it cannot (no native addon, another route or profile): the sender goes on as before.
   */
  joinFanout(key: object): FanoutMember | undefined {
    const context = this.protector.nativeContext;
    const shared = context && this.path.fanout?.();
    if (!context || !shared) return undefined;
    this.flush();
    this.member = shared.port.fanout(key, this.holdPictures).join(this, context, shared.route);
    return this.member;
  }

  /** The fan-out sent `packets` with the next sequence numbers: the numbering and the report's counts move on. */
  advance(packets: number, octets: number, timestamp: number, now: number): void {
    const next = this.sequence + packets;
    this.sequence = next & 0xffff;
    this.rolloverCount = (this.rolloverCount + (next >>> 16)) >>> 0;
    this.packets += packets;
    this.octets += octets;
    this.lastTimestamp = timestamp;
    this.lastSentAt = now;
  }

  /** Protects and sends one packet; returns its RTP size (header and payload). */
  send(packet: RtpPacket, now = Date.now()): number {
    const sequence = this.sequence;
    const slot = sequence & (HISTORY - 1);
    this.history[slot] = packet;
    this.historySequence[slot] = sequence;
    this.historyRollover[slot] = this.rolloverCount;
    this.queue(packet, sequence, this.rolloverCount);
    this.sequence = (sequence + 1) & 0xffff;
    if (this.sequence === 0) this.rolloverCount = (this.rolloverCount + 1) >>> 0;
    this.packets++;
    this.octets += packet.payload.length;
    this.lastTimestamp = packet.timestamp;
    this.lastSentAt = now;
    return 12 + packet.payload.length;
  }

  /**
   * Sends again those of the NACKed sequence numbers still kept: protected again with the same
   * index, which gives the same SRTP packet byte for byte (the viewer never got it).
   */
  resend(lost: readonly number[]): void {
    for (const sequence of lost) {
      const slot = sequence & (HISTORY - 1);
      const packet = this.history[slot];
      if (packet && this.historySequence[slot] === sequence) {
        this.resent++;
        this.queue(packet, sequence, this.historyRollover[slot]!);
        continue;
      }
      // Sent by the track's fan-out, which keeps them.
      const shared = this.member?.lookup(sequence);
      if (!shared) continue;
      this.resent++;
      this.queue(shared.packet, sequence, shared.rollover);
    }
  }

  /**
   * Protects and sends the turn's packets, in batches of at most `BATCH_BYTES` of payload
   * (called at the end of the turn; tests may call it sooner).
   */
  flush(): void {
    this.turn.sending();
    const count = this.pendingCount;
    this.pendingCount = 0;
    let from = 0;
    while (from < count) {
      let to = from + 1;
      let bytes = this.pending[from]!.payload.length;
      while (to < count && bytes + this.pending[to]!.payload.length <= BATCH_BYTES) bytes += this.pending[to++]!.payload.length;
      this.sendBatch(from, to);
      from = to;
    }
  }

  private sendBatch(from: number, to: number): void {
    const datagrams = this.protector.protectRtpBatch(this.pending, from, to);
    // The payloads are the stream's: let them go with the turn.
    for (let i = from; i < to; i++) this.pending[i]!.payload = EMPTY;
    // Once the whole batch has left, its buffer is free for a later batch.
    const final = datagrams[datagrams.length - 1]!;
    this.path.all(datagrams, () => this.protector.recycle(final));
  }

  private queue(packet: RtpPacket, sequence: number, rollover: number): void {
    let entry = this.pending[this.pendingCount];
    if (!entry) {
      entry = { header: Buffer.allocUnsafeSlow(12), payload: EMPTY, ssrc: this.ssrc, sequence, rollover };
      this.pending.push(entry);
    }
    const header = entry.header;
    header[0] = 0x80;
    header[1] = (packet.marker ? 0x80 : 0) | (this.payloadType & 0x7f);
    header.writeUInt16BE(sequence, 2);
    header.writeUInt32BE(packet.timestamp >>> 0, 4);
    header.writeUInt32BE(this.ssrc >>> 0, 8);
    entry.payload = packet.payload;
    entry.sequence = sequence;
    entry.rollover = rollover;
    this.turn.added(this.pendingCount === 0, packet.marker);
    this.pendingCount++;
  }

  /**
   * Sends a sender report with the source description (RFC 3550 6.4.1, 6.5), protected as
   * SRTCP: the wall clock now and the RTP time it matches, so the viewer can line up audio and
   * video. Nothing before the first packet.
   */
  sendReport(now = Date.now()): void {
    if (this.packets === 0) return;
    // The packets it counts go first.
    this.flush();
    const cname = Buffer.from(this.cname);
    // SDES: one chunk, the CNAME item and at least one zero octet up to a 32-bit boundary.
    const sdesLength = 4 + 4 + Math.ceil((2 + cname.length + 1) / 4) * 4;
    const packet = Buffer.alloc(28 + (cname.length > 0 ? sdesLength : 0));
    packet.writeUInt16BE(0x80c8, 0);
    packet.writeUInt16BE(6, 2);
    packet.writeUInt32BE(this.ssrc >>> 0, 4);
    packet.writeUInt32BE(Math.floor(now / 1000) + NTP_UNIX_OFFSET, 8);
    packet.writeUInt32BE(Math.floor(((now % 1000) / 1000) * 0x1_0000_0000) >>> 0, 12);
    packet.writeUInt32BE((this.lastTimestamp + Math.round(((now - this.lastSentAt) * this.clockRate) / 1000)) >>> 0, 16);
    packet.writeUInt32BE(this.packets >>> 0, 20);
    packet.writeUInt32BE(this.octets >>> 0, 24);
    if (cname.length > 0) {
      packet.writeUInt16BE(0x81ca, 28);
      packet.writeUInt16BE(sdesLength / 4 - 1, 30);
      packet.writeUInt32BE(this.ssrc >>> 0, 32);
      packet[36] = 1;
      packet[37] = cname.length;
      cname.copy(packet, 38);
    }
    this.rtcpIndex = (this.rtcpIndex + 1) & 0x7fffffff;
    this.path.one(this.protector.protectRtcp(packet, this.rtcpIndex));
  }
}
