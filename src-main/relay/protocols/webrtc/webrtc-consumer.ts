import type { MediaStreamTrack, RTCRtpSender } from 'werift';
import { werift } from './werift-module';
import type { Consumer } from '../../core/consumer';
import type { Codec } from '../../core/media';
import type { MediaRequest, TrackMatch } from '../../core/negotiation';
import type { ConnectionInfo } from '../../core/producer';
import type { RtpPacket } from '../../core/rtp-packet';
import type { PacketSink, Track } from '../../core/track';
import { createH264ParameterSetInjector } from './h264-parameter-sets';
import type { FanoutMember } from './srtp/srtp-fanout';
import type { SrtpTrackSender } from './srtp/srtp-track-sender';
import type { ViewerFeedback } from './viewer-feedback';

export interface WebrtcTrack {
  /** The werift track the session's transceiver is made for (it carries no media itself). */
  output: MediaStreamTrack;
  /** The stream's codec this track carries. */
  source: Codec;
  kind: 'video' | 'audio';
  /** The stream's track: a viewer's picture-loss report asks its source for a keyframe through it. */
  track: Track;
}

/** Opens the wire for one negotiated track once DTLS is up: its sender with the SRTP keys and the viewer's path. */
export type OpenTrackSender = (sender: RTCRtpSender, payloadType: number, clockRate: number) => SrtpTrackSender;

/** How often each track sends a sender report (werift sent one every 0.5-1.5 s). */
const REPORT_INTERVAL_MS = 1_000;

interface Output {
  payloadType: number;
  clockRate: number;
  sender: RTCRtpSender;
  wire?: SrtpTrackSender;
  /** The stream track's fan-out on the shared UDP port, once joined: it sends this track's live packets. */
  member?: FanoutMember;
}

/** H.264 as browsers need it (parameter sets in band before each IDR); other codecs go as they come. */
const repairFor = (codec: Codec) => (codec.name === 'H264' ? createH264ParameterSetInjector(codec) : undefined);

/**
 * A browser viewer: packets of the negotiated tracks are protected (SRTP, in Node's crypto) and
 * sent by the relay itself with the payload type the answer gave them. Until the peer
 * connection is up they wait in the senders' queues (the cached GOP first), so the picture
 * starts at a keyframe the moment media can flow.
 */
export class WebrtcConsumer implements Consumer {
  readonly tracks: WebrtcTrack[] = [];
  private readonly outputs = new Map<MediaStreamTrack, Output>();
  /** Each track's codec as its source now announces it (the fan-out mends packets for it). */
  private readonly sources = new Map<MediaStreamTrack, { codec: Codec }>();
  private flowing = false;
  private closed = false;
  private readonly drainWaiters: Array<() => void> = [];
  private bytes = 0;
  private reports: NodeJS.Timeout | undefined;

  constructor(
    readonly requests: MediaRequest[],
    private readonly label: { remote: string; userAgent: string },
    private readonly onClose: (reason: string) => void,
  ) {}

  attach(track: Track, match: TrackMatch): PacketSink {
    const output = new (werift().MediaStreamTrack)({ kind: track.media.kind });
    this.tracks.push({ output, source: match.codec, kind: track.media.kind, track });
    const source = { codec: match.codec };
    this.sources.set(output, source);
    let repair = repairFor(match.codec);
    // The wire of the packet at hand: one `emit` for the track's lifetime, not a closure per packet.
    let wire: SrtpTrackSender | undefined;
    let entry: Output | undefined;
    const emit = (packet: RtpPacket) => void (this.bytes += wire!.send(packet));
    return {
      write: (packet) => {
        if (this.closed) return true;
        if (!this.flowing) return false;
        // Found once: the answer set its outputs before media flows (a lookup per packet and viewer showed in profiles).
        entry ??= this.outputs.get(output);
        wire = entry?.wire;
        if (!wire) return true; // the answer left this media out
        const member = entry!.member;
        if (member?.active) {
          // The track's fan-out sends it to every viewer at once (and mends it once for all).
          member.offer(packet);
          this.bytes += 12 + packet.payload.length;
        } else if (repair) repair(packet, emit);
        else emit(packet);
        return true;
      },
      onDrain: (callback) => void this.drainWaiters.push(callback),
      // The camera came back (perhaps at another size): its parameter sets are the new SDP's.
      onSourceChange: (codec) => {
        source.codec = codec;
        repair = repairFor(codec);
        this.outputs.get(output)?.member?.fanout.useRepair(codec, repairFor);
      },
    };
  }

  /** Before the answer: the stream attaches this viewer again (its audio now from a transcoder). */
  detachAll(): void {
    this.tracks.length = 0;
  }

  /** The viewer's own address, once its media reached the shared ICE port (not the HTTP client's). */
  viewerAt(remote: string): void {
    this.label.remote = remote;
  }

  private readonly reported = new Map<MediaStreamTrack, { packetsLost: number; fractionLost: number }>();

  /** A receiver report of the viewer for one track: its loss counts, as the viewer has them. */
  viewerReported(output: MediaStreamTrack, report: { packetsLost: number; fractionLost: number }): void {
    this.reported.set(output, { packetsLost: report.packetsLost, fractionLost: report.fractionLost });
  }

  private nacked = 0;

  /**
   * What the viewer sent back on the shared UDP port, read by the relay rather than werift: its
   * loss counts, the packets it NACKs (sent again) and its asks for a keyframe, each for the
   * track whose SSRC it names.
   */
  feedback(items: readonly ViewerFeedback[]): void {
    for (const item of items) {
      for (const [output, entry] of this.outputs) {
        if (entry.sender.ssrc !== item.ssrc) continue;
        if (item.kind === 'report') this.viewerReported(output, item);
        else if (item.kind === 'nack') {
          this.nacked += item.lost.length;
          entry.wire?.resend(item.lost);
        } else this.tracks.find((t) => t.output === output)?.track.requestKeyframe();
      }
    }
  }

  /**
   * The payload type the answer gave a track, and the werift sender whose SSRC and DTLS it goes
   * out with: the last 128 packets are kept and those a viewer NACKs sent again, counted here.
   */
  sendAs(output: MediaStreamTrack, codec: { payloadType: number; clockRate: number }, sender: RTCRtpSender): void {
    const entry: Output = { payloadType: codec.payloadType, clockRate: codec.clockRate, sender };
    this.outputs.set(output, entry);
    sender.onGenericNack.subscribe((nack) => {
      this.nacked += nack.lost.length;
      entry.wire?.resend(nack.lost);
    });
  }

  /** The peer connection is up: each track gets its wire, then queued packets (the cached GOP) go out, then live ones. */
  start(open: OpenTrackSender): void {
    if (this.closed || this.flowing) return;
    for (const entry of this.outputs.values()) entry.wire = open(entry.sender, entry.payloadType, entry.clockRate);
    this.flowing = true;
    this.reports = setInterval(() => {
      for (const entry of this.outputs.values()) entry.wire?.sendReport();
    }, REPORT_INTERVAL_MS);
    this.reports.unref();
    // The stream hands over what waited (synchronously): the cached GOP goes out on this viewer's own...
    for (const waiter of this.drainWaiters.splice(0)) waiter();
    // ...and live packets through the track's fan-out, where the route allows it.
    for (const [output, entry] of this.outputs) {
      const track = this.tracks.find((t) => t.output === output)?.track;
      const source = this.sources.get(output);
      if (!track || !source) continue;
      entry.member = entry.wire?.joinFanout(track);
      entry.member?.fanout.useRepair(source.codec, repairFor);
    }
  }

  info(): ConnectionInfo {
    return {
      format_name: 'webrtc',
      protocol: 'webrtc',
      remote_addr: this.label.remote,
      user_agent: this.label.userAgent,
      medias: this.tracks.filter((t) => this.outputs.has(t.output)).map((t) => `${t.kind}, sendonly, ${t.source.name}`),
      bytes_send: this.bytes,
      ...(this.reported.size > 0 ? this.lossInfo() : {}),
      nacked_packets: this.nacked,
    };
  }

  private lossInfo(): Pick<ConnectionInfo, 'packets_lost' | 'packet_loss'> {
    const reports = [...this.reported.values()];
    // fraction lost is an 8-bit fixed-point fraction (RFC 3550 6.4.1).
    const worst = Math.max(...reports.map((r) => r.fractionLost));
    return {
      packets_lost: reports.reduce((sum, r) => sum + Math.max(0, r.packetsLost), 0),
      packet_loss: Math.round((worst / 256) * 1000) / 10,
    };
  }

  /** The session ended: nothing more is sent. */
  stop(): void {
    this.closed = true;
    clearInterval(this.reports);
    for (const entry of this.outputs.values()) entry.member?.leave();
  }

  /** The stream ends the viewer (deleted, or its source gone for good). */
  close(reason: string): void {
    if (this.closed) return;
    this.stop();
    this.onClose(reason);
  }
}
