import type { Codec } from '../../../core/media';
import type { RtpPacket } from '../../../core/rtp-packet';
import {
  FANOUT_PACKET,
  FANOUT_ROW,
  FANOUT_SEGMENT_REFUSED,
  type RelayNative,
  type SrtpCmHandle,
  type SrtpGcmHandle,
  type SrtpFanoutHandle,
} from '../../../native/native-addon';
import { PictureTurn } from './picture-hold';

/** Packets sent in one call to the addon, at most (its own limit). */
const MAX_PACKETS = 256;
/** Payload bytes of one call, at most: a keyframe goes in a few calls, the scratch memory stays small. */
const MAX_BYTES = 192 * 1024;
/** Packets kept for NACKs (a power of two): as many as each viewer's own history, and more. */
const HISTORY = 512;
/**
 * The largest payload a datagram can carry with its RTP header and AES-GCM's tag (UDP over IPv4
 * takes 65,507 bytes): a camera's RTP over TCP may carry up to 65,523, which no viewer could get.
 */
const MAX_PAYLOAD = 65_507 - 12 - 16;

/** A viewer's keys in the addon: AES-CM or AES-GCM, whichever its DTLS handshake chose. */
type SrtpKeysHandle = SrtpCmHandle | SrtpGcmHandle;

/** Where a member's datagrams go on the shared port, while that address is still the viewer's. */
export interface FanoutRoute {
  address32: number;
  port: number;
  alive(): boolean;
}

/** What a member of a fan-out is to it: its sender's numbering and counts, which the fan-out moves on. */
export interface FanoutSender {
  readonly ssrc: number;
  readonly payloadType: number;
  /** The sequence number and rollover counter of the next packet. */
  readonly nextSequence: number;
  readonly rollover: number;
  /** `packets` were sent with the next sequence numbers (`octets` of payload, the last with `timestamp`). */
  advance(packets: number, octets: number, timestamp: number, now: number): void;
}

/**
 * The shared UDP port's side of every fan-out: the addon, the socket's descriptor, the scratch
 * memory its calls build datagrams in, and one fan-out per stream track (weakly: a track gone
 * takes its fan-out with it).
 */
export class FanoutPort {
  /** False once the system refused segmentation offload (then each datagram goes as its own message). */
  segment = true;
  closed = false;
  readonly handle: SrtpFanoutHandle;
  private readonly fanouts = new WeakMap<object, SrtpFanout>();

  constructor(
    readonly addon: RelayNative,
    readonly fd: number,
  ) {
    this.handle = addon.srtpFanoutContext();
  }

  /** The fan-out of one stream track (`key`), made on first use; video holds an open picture up to `HOLD_MS`. */
  fanout(key: object, holdPictures: boolean): SrtpFanout {
    let fanout = this.fanouts.get(key);
    if (!fanout) {
      fanout = new SrtpFanout(this, holdPictures);
      this.fanouts.set(key, fanout);
    }
    return fanout;
  }

  /** The socket closed: its descriptor number may be used again, so nothing more is sent on it. */
  close(): void {
    this.closed = true;
  }
}

/**
 * One viewer in a fan-out: from the packet after it joined, the fan-out sends it every packet of
 * the track, numbered on from its own sender. `lookup` finds those packets again for a NACK.
 */
export class FanoutMember {
  active = true;
  /** Packets of the fan-out's current turn that came before it joined (it had them already). */
  skip: number;
  /** The fan-out's index of the first packet it gets, and that packet's extended sequence number for this viewer. */
  private readonly joinIndex: number;
  private readonly joinExtended: number;

  constructor(
    readonly fanout: SrtpFanout,
    readonly sender: FanoutSender,
    readonly context: SrtpKeysHandle,
    readonly route: FanoutRoute,
    skip: number,
    joinIndex: number,
  ) {
    this.skip = skip;
    this.joinIndex = joinIndex;
    this.joinExtended = sender.rollover * 0x10000 + sender.nextSequence;
  }

  /** A packet of the track, given by each member's sink: the fan-out takes it once. */
  offer(packet: RtpPacket): void {
    this.fanout.offer(packet);
  }

  /** The packet this viewer got from the fan-out with `sequence`, and its rollover counter, while the fan-out keeps it. */
  lookup(sequence: number): { packet: RtpPacket; rollover: number } | undefined {
    const back = (this.sender.nextSequence - sequence) & 0xffff;
    if (back === 0) return undefined;
    const extended = this.sender.rollover * 0x10000 + this.sender.nextSequence - back;
    if (extended < this.joinExtended) return undefined;
    const packet = this.fanout.packetAt(this.joinIndex + (extended - this.joinExtended));
    return packet && { packet, rollover: Math.floor(extended / 0x10000) };
  }

  /** The viewer left (or its route did): the fan-out sends it nothing more. */
  leave(): void {
    this.active = false;
    this.fanout.remove(this);
  }
}

/**
 * A stream track's packets to all its WebRTC viewers on the shared port at once. Each viewer's
 * sink offers every packet; the fan-out keeps the first offer of each (every sink offers the
 * same packet objects in the same order) and at the end of the turn copies the turn's payloads
 * once and sends them to every member in one call to the addon (`../../../native/srtp-fanout.c`):
 * each viewer's header, its encryption, one sendmmsg for all. Before, each viewer laid out,
 * protected and sent its own copy with a timer, an array and a buffer view per datagram.
 */
export class SrtpFanout {
  private readonly members: FanoutMember[] = [];
  private readonly contexts: SrtpKeysHandle[] = [];
  private rows = new Int32Array(16 * FANOUT_ROW);
  private results = new Int32Array(16);
  private input = new Uint8Array(64 * 1024);
  private readonly fields = new Int32Array(MAX_PACKETS * FANOUT_PACKET);
  private readonly pending: Array<RtpPacket | undefined> = [];
  private pendingCount = 0;
  private pendingBytes = 0;
  private lastOffered: RtpPacket | undefined;
  private repair: ((packet: RtpPacket, emit: (packet: RtpPacket) => void) => void) | undefined;
  private repairCodec: Codec | undefined;
  private readonly history = new Array<RtpPacket | undefined>(HISTORY);
  private readonly historyIndex = new Float64Array(HISTORY).fill(-1);
  /** The index the next packet queued gets (counts every packet the fan-out sent). */
  private next = 0;
  private readonly queueNow = (packet: RtpPacket) => this.queue(packet);
  /** When the pending packets go: at the turn's end, an open picture held up to `HOLD_MS`. */
  private readonly turn: PictureTurn;
  /** Datagrams the kernel did not take (its send buffer full): dropped, as UDP drops; viewers NACK them. */
  dropped = 0;

  constructor(
    private readonly port: FanoutPort,
    holdPictures: boolean,
  ) {
    this.turn = new PictureTurn(
      holdPictures,
      () => this.pendingCount > 0,
      () => this.flush(),
    );
  }

  get size(): number {
    return this.members.length;
  }

  /**
   * A viewer joins: it gets every packet queued from now on. Its sender must have sent what it
   * had (the cached GOP) before, so its numbering goes on from there.
   */
  join(sender: FanoutSender, context: SrtpKeysHandle, route: FanoutRoute): FanoutMember {
    const member = new FanoutMember(this, sender, context, route, this.pendingCount, this.next);
    this.members.push(member);
    return member;
  }

  remove(member: FanoutMember): void {
    const at = this.members.indexOf(member);
    if (at >= 0) this.members.splice(at, 1);
  }

  /**
   * How the track's packets are mended before they go (H.264 parameter sets before an IDR): made
   * again when the source's codec changes, once for every member.
   */
  useRepair(codec: Codec, make: (codec: Codec) => ((packet: RtpPacket, emit: (packet: RtpPacket) => void) => void) | undefined): void {
    if (this.repairCodec === codec) return;
    this.repairCodec = codec;
    this.repair = make(codec);
  }

  offer(packet: RtpPacket): void {
    if (packet === this.lastOffered) return;
    this.lastOffered = packet;
    if (this.repair) this.repair(packet, this.queueNow);
    else this.queue(packet);
  }

  /** The packet sent with fan-out index `index`, while it is kept. */
  packetAt(index: number): RtpPacket | undefined {
    const slot = index & (HISTORY - 1);
    return this.historyIndex[slot] === index ? this.history[slot] : undefined;
  }

  private queue(packet: RtpPacket): void {
    if (packet.payload.length > MAX_PAYLOAD) {
      this.dropped += this.members.length;
      return;
    }
    if (this.pendingCount === MAX_PACKETS || this.pendingBytes + packet.payload.length > MAX_BYTES) this.flush();
    const slot = this.next & (HISTORY - 1);
    this.history[slot] = packet;
    this.historyIndex[slot] = this.next;
    this.next++;
    this.turn.added(this.pendingCount === 0, packet.marker);
    this.pending[this.pendingCount++] = packet;
    this.pendingBytes += packet.payload.length;
  }

  /** Sends the pending packets to every member (called at the end of the turn; tests may call it sooner). */
  flush(): void {
    this.turn.sending();
    const count = this.pendingCount;
    if (count === 0) return;
    this.pendingCount = 0;
    if (this.input.length < this.pendingBytes) this.input = new Uint8Array(Math.max(this.pendingBytes, this.input.length * 2));
    this.pendingBytes = 0;
    const input = this.input;
    const fields = this.fields;
    let at = 0;
    let lastTimestamp = 0;
    for (let i = 0; i < count; i++) {
      const packet = this.pending[i]!;
      // The payloads are the stream's: let them go with the turn (the history keeps what NACKs need).
      this.pending[i] = undefined;
      const payload = packet.payload;
      input.set(payload, at);
      fields[FANOUT_PACKET * i] = at;
      fields[FANOUT_PACKET * i + 1] = payload.length;
      fields[FANOUT_PACKET * i + 2] = packet.timestamp | 0;
      fields[FANOUT_PACKET * i + 3] = packet.marker ? 1 : 0;
      at += payload.length;
      lastTimestamp = packet.timestamp;
    }
    const viewers = this.fillRows(count);
    if (viewers === 0 || this.port.closed) return;
    const { addon, handle, fd } = this.port;
    const results = this.results;
    const answer = addon.srtpFanout(
      handle,
      fd,
      this.contexts,
      this.rows,
      viewers,
      input.buffer as ArrayBuffer,
      fields,
      count,
      this.port.segment,
      results,
    );
    if (answer === FANOUT_SEGMENT_REFUSED) this.port.segment = false;
    // Arguments the addon refused (nothing sent): the turn is lost to every viewer, as UDP loses it.
    else if (answer < 0) results.fill(0, 0, viewers);
    const now = Date.now();
    for (let v = 0; v < viewers; v++) {
      const member = this.members[v]!;
      const skipped = Math.min(member.skip, count);
      const sent = count - skipped;
      member.skip -= skipped;
      if (sent === 0) continue;
      let octets = at;
      for (let i = 0; i < skipped; i++) octets -= fields[FANOUT_PACKET * i + 1]!;
      member.sender.advance(sent, octets, lastTimestamp, now);
      this.dropped += sent - Math.max(0, results[v]!);
    }
  }

  /** Each live member's row and context, in member order; members whose address is gone leave. Returns their count. */
  private fillRows(count: number): number {
    for (let m = this.members.length - 1; m >= 0; m--) if (!this.members[m]!.route.alive()) this.members[m]!.leave();
    const viewers = this.members.length;
    if (this.rows.length < viewers * FANOUT_ROW) {
      this.rows = new Int32Array(viewers * 2 * FANOUT_ROW);
      this.results = new Int32Array(viewers * 2);
    }
    const rows = this.rows;
    this.contexts.length = viewers;
    for (let v = 0; v < viewers; v++) {
      const member = this.members[v]!;
      const { sender, route } = member;
      const row = v * FANOUT_ROW;
      rows[row] = route.address32 | 0;
      rows[row + 1] = route.port;
      rows[row + 2] = sender.ssrc | 0;
      rows[row + 3] = sender.payloadType;
      rows[row + 4] = sender.nextSequence;
      rows[row + 5] = sender.rollover | 0;
      rows[row + 6] = Math.min(member.skip, count);
      this.contexts[v] = member.context;
    }
    return viewers;
  }
}
