import { startsKeyframe } from './keyframe';
import type { Codec, Media } from './media';
import type { RtpPacket } from './rtp-packet';

/** Where a consumer takes packets: `write` returns false when it cannot take more right now. */
export interface PacketSink {
  write(packet: RtpPacket): boolean;
  /** Calls back once the sink can take packets again (after `write` returned false). */
  onDrain(callback: () => void): void;
  /**
   * A new source connection feeds the track from the next packet on (the camera reconnected):
   * `codec` is what it announced (its parameter sets may differ: another picture size).
   */
  onSourceChange?(codec: Codec): void;
}

export interface SenderStats {
  id: number;
  parent: number;
  codec: string;
  packets: number;
  bytes: number;
  drops: number;
}

/**
 * One consumer's view of a track: a bounded queue that drops (and counts) when the consumer
 * falls behind, so one slow viewer never stalls the camera or the others.
 */
export class Sender {
  // A queue read from `head` (no shift() per packet); compacted once half of it is read.
  private queue: RtpPacket[] = [];
  private head = 0;
  private waiting = false;
  private closed = false;
  packets = 0;
  bytes = 0;
  drops = 0;

  constructor(
    readonly id: number,
    /** Renewed when the source reconnects (`sourceChanged`). */
    public codec: Codec,
    private readonly sink: PacketSink,
    private readonly capacity: number,
    /** The id of the track it reads (a producer's receiver), as go2rtc's `parent`. */
    readonly parent = 0,
  ) {}

  push(packet: RtpPacket): void {
    if (this.closed) return;
    // The common case, a consumer keeping up: straight to the sink, no queueing.
    if (!this.waiting && this.head === this.queue.length) {
      this.send(packet);
      return;
    }
    if (this.queue.length - this.head >= this.capacity) {
      this.drops++;
      return;
    }
    this.queue.push(packet);
    if (!this.waiting) this.flush();
  }

  /** Hands one packet to the sink; false (and waiting for its drain) when the sink is full. */
  private send(packet: RtpPacket): boolean {
    this.packets++;
    this.bytes += packet.payload.length;
    if (this.sink.write(packet)) return true;
    this.waiting = true;
    this.sink.onDrain(this.resume);
    return false;
  }

  private readonly resume = () => {
    this.waiting = false;
    this.flush();
  };

  private flush(): void {
    while (this.head < this.queue.length && !this.closed) {
      const packet = this.queue[this.head]!;
      this.queue[this.head++] = undefined as unknown as RtpPacket;
      if (!this.send(packet)) break;
    }
    if (this.head === this.queue.length) {
      this.queue = [];
      this.head = 0;
    } else if (this.head > 1024 && this.head * 2 > this.queue.length) {
      this.queue = this.queue.slice(this.head);
      this.head = 0;
    }
  }

  /** Tells the consumer a new source connection follows, with its codec of the same name (or the track's). */
  sourceChanged(media: Media): void {
    if (this.closed) return;
    const codec = media.codecs.find((c) => c.name === this.codec.name) ?? media.codecs[0]!;
    this.codec = codec;
    this.sink.onSourceChange?.(codec);
  }

  close(): void {
    this.closed = true;
    this.queue = [];
    this.head = 0;
  }

  get queued(): number {
    return this.queue.length - this.head;
  }

  stats(): SenderStats {
    return { id: this.id, parent: this.parent, codec: this.codec.name, packets: this.packets, bytes: this.bytes, drops: this.drops };
  }
}

export interface TrackOptions {
  /** Packets a consumer may fall behind before its packets are dropped. */
  senderCapacity?: number;
  /** Upper bound of the GOP cache, in packets (a very long GOP is cut, not kept whole). */
  gopCacheLimit?: number;
  /** Hands out connection ids (one counter per relay, shown in stats). */
  nextId: () => number;
}

/**
 * One producer track (the receiver): it keeps the packets since the last keyframe, so a new
 * consumer starts with a decodable picture at once, and fans every packet out to its senders.
 * The track outlives a source connection (consumers keep going across reconnects), its cache
 * does not: the source runner calls `endSource` when the connection ends and `beginSource`
 * when the next one takes over, so nobody ever gets a picture of a connection before.
 */
export class Track {
  /** Unique in the relay: a consumer's sender names it as its `parent`. */
  readonly id: number;
  /** An array, not a Set: walked for every packet, and a Set's walk made an iterator each time. */
  private senders: Sender[] = [];
  private gop: RtpPacket[] = [];
  private gopValid = false;
  /** True while every cached packet belongs to the keyframe's first access unit. */
  private inKeyframeUnit = false;
  packets = 0;
  bytes = 0;
  private readonly capacity: number;
  private readonly gopLimit: number;
  private readonly cachesGop: boolean;

  /** Counts the source connections that fed the track; `connection` is the live one's. */
  private connections = 1;
  private live = true;

  constructor(
    /** What the feeding connection announced; renewed by `beginSource` (same kind and codec name). */
    public media: Media,
    public codec: Codec,
    private readonly options: TrackOptions,
  ) {
    this.id = options.nextId();
    this.capacity = options.senderCapacity ?? 2048;
    this.gopLimit = options.gopCacheLimit ?? 4096;
    this.cachesGop = media.kind === 'video' && (codec.name === 'H264' || codec.name === 'H265' || codec.name === 'VP8');
  }

  /** How the feeding connection is asked for a keyframe; unset for sources that cannot be asked. */
  private keyframeRequester?: () => void;
  private lastKeyframeRequest = 0;

  /** The source runner tells the track how its current connection takes keyframe requests. */
  setKeyframeRequester(requester: (() => void) | undefined): void {
    this.keyframeRequester = requester;
  }

  /**
   * Asks the source for a keyframe (a viewer lost a picture, or joined with nothing cached to
   * start from); at most twice a second, as browsers' own PLI throttling does.
   */
  requestKeyframe(): void {
    const now = Date.now();
    if (!this.keyframeRequester || this.media.kind !== 'video' || now - this.lastKeyframeRequest < 500) return;
    this.lastKeyframeRequest = now;
    this.keyframeRequester();
  }

  /** Called by the producer for every packet of this track. */
  receive(incoming: RtpPacket): void {
    this.packets++;
    this.bytes += incoming.payload.length;
    const packet = this.continuous(incoming);
    if (this.cachesGop) this.cache(packet);
    const senders = this.senders;
    for (let i = 0; i < senders.length; i++) senders[i]!.push(packet);
  }

  // Consumers see one continuous RTP stream (one SSRC, sequence numbers and timestamps without
  // jumps) even when the source reconnects and starts over with new ones.
  private outSsrc?: number;
  private inSsrc?: number;
  private seqOffset = 0;
  private tsOffset = 0;
  private lastSeq = 0;
  private lastTs = 0;

  private continuous(packet: RtpPacket): RtpPacket {
    if (this.outSsrc === undefined) {
      this.outSsrc = packet.ssrc;
      this.inSsrc = packet.ssrc;
    } else if (packet.ssrc !== this.inSsrc) {
      this.inSsrc = packet.ssrc;
      const step = this.media.kind === 'video' ? Math.round(this.codec.clockRate / 25) : Math.round(this.codec.clockRate / 50);
      this.seqOffset = (this.lastSeq + 1 - packet.sequenceNumber) & 0xffff;
      this.tsOffset = (this.lastTs + step - packet.timestamp) >>> 0;
      this.gop = [];
      this.gopValid = false;
    }
    this.lastSeq = (packet.sequenceNumber + this.seqOffset) & 0xffff;
    this.lastTs = (packet.timestamp + this.tsOffset) >>> 0;
    // The first connection's packets go out as they came: no copy per packet (the cache and
    // every consumer share it, and nobody changes a packet). A later connection's are renumbered.
    if (packet.ssrc === this.outSsrc && this.seqOffset === 0 && this.tsOffset === 0) return packet;
    return { ...packet, ssrc: this.outSsrc, sequenceNumber: this.lastSeq, timestamp: this.lastTs };
  }

  private cache(packet: RtpPacket): void {
    const sameUnit = this.inKeyframeUnit && this.gop[0]?.timestamp === packet.timestamp;
    // SPS, PPS and the IDR's packets all look like a keyframe start: they open one GOP together.
    if (startsKeyframe(this.codec.name, packet) && !sameUnit) {
      this.gop = [packet];
      this.gopValid = true;
      this.inKeyframeUnit = true;
      return;
    }
    if (!this.gopValid) return;
    if (!sameUnit) this.inKeyframeUnit = false;
    if (this.gop.length >= this.gopLimit) {
      this.gop = [];
      this.gopValid = false;
      return;
    }
    this.gop.push(packet);
  }

  /**
   * Adds a consumer; it first gets the cached GOP (if any), then live packets. Its queue holds
   * the GOP on top of the usual allowance: an RTSP viewer takes nothing between SETUP and PLAY,
   * and a heavy GOP (up to `gopCacheLimit` packets) must not push out its own tail and the live
   * packets after it. The queue only refers to packets the cache holds anyway.
   */
  addSender(sink: PacketSink, codec: Codec = this.codec): Sender {
    const backlog = this.gopValid ? this.gop.length : 0;
    const sender = new Sender(this.options.nextId(), codec, sink, this.capacity + backlog, this.id);
    if (this.gopValid) for (const packet of this.gop) sender.push(packet);
    else this.requestKeyframe();
    this.senders = [...this.senders, sender];
    return sender;
  }

  removeSender(sender: Sender): void {
    sender.close();
    this.senders = this.senders.filter((s) => s !== sender);
  }

  get senderCount(): number {
    return this.senders.length;
  }

  get cachedPackets(): number {
    return this.gopValid ? this.gop.length : 0;
  }

  /**
   * Which source connection feeds the track now (a number of its own), undefined while none
   * does. Whatever was made from the track's packets (a snapshot) is good while it stays the same.
   */
  get connection(): number | undefined {
    return this.live ? this.connections : undefined;
  }

  /** The connection feeding the track ended (stream idle, source lost): its GOP goes with it. */
  endSource(): void {
    this.live = false;
    this.dropCache();
  }

  /**
   * Another connection feeds the track from now on: nothing cached from the one before is
   * handed out, and each consumer learns the codec it announced (maybe other parameter sets).
   */
  beginSource(media: Media, codec: Codec): void {
    this.dropCache();
    this.connections++;
    this.live = true;
    this.media = media;
    this.codec = codec;
    for (const sender of this.senders) sender.sourceChanged(media);
  }

  private dropCache(): void {
    this.gop = [];
    this.gopValid = false;
    this.inKeyframeUnit = false;
  }

  close(): void {
    for (const sender of this.senders) sender.close();
    this.senders = [];
    this.live = false;
    this.dropCache();
  }
}
