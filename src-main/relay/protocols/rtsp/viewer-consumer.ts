import type { Socket } from 'node:net';
import type { Consumer } from '../../core/consumer';
import type { Codec } from '../../core/media';
import type { MediaRequest, TrackMatch } from '../../core/negotiation';
import type { ConnectionInfo } from '../../core/producer';
import type { RtpPacket } from '../../core/rtp-packet';
import type { PacketSink, Track } from '../../core/track';
import type { UdpTrackOutput } from './rtsp-udp-session';
import type { ViewerOutput, ViewerWrites } from './viewer-writes';

/**
 * A viewer: packets queue in its senders until PLAY, then go out as interleaved frames on the
 * RTSP connection, or as datagrams for the tracks set up over UDP.
 */
export class ViewerConsumer implements Consumer {
  readonly tracks: Array<{ track: Track; match: TrackMatch; channel?: number; udp?: UdpTrackOutput; codec: Codec }> = [];
  private playing = false;
  private readonly drainWaiters: Array<() => void> = [];
  /** Packets the senders handed over before PLAY, in order: they go out first. */
  private readonly beforePlay: Array<{ index: number; packet: RtpPacket }> = [];
  /** How the shared writer reaches this viewer: its socket, and waking its senders when there is room. */
  private readonly output: ViewerOutput;
  bytes = 0;

  constructor(
    readonly requests: MediaRequest[],
    private readonly socket: Socket,
    private readonly userAgent: string,
    private readonly writes: ViewerWrites,
    readonly excludedSource?: string,
  ) {
    socket.on('drain', () => this.wake());
    this.output = { socket, onRoom: () => this.wake() };
  }

  attach(track: Track, match: TrackMatch): PacketSink {
    const index = this.tracks.length;
    this.tracks.push({ track, match, codec: match.codec });
    return {
      write: (packet) => {
        if (this.playing) return this.deliver(index, packet);
        // A sender counts a packet handed over as sent, "false" only making it wait: the packet
        // is kept until PLAY, or a viewer's first packet (the cached GOP's keyframe) would be lost.
        this.beforePlay.push({ index, packet });
        return false;
      },
      onDrain: (callback) => void this.drainWaiters.push(callback),
    };
  }

  /** Sends one packet of track `index`; false when the viewer's socket is full. */
  private deliver(index: number, packet: RtpPacket): boolean {
    const entry = this.tracks[index]!;
    if (entry.udp) {
      // UDP never pushes back: a socket that falls behind drops, so this always takes more.
      this.bytes += entry.udp.send(packet, entry.codec.payloadType);
      return true;
    }
    if (entry.channel === undefined) return true; // the viewer did not SETUP this track
    const frame = this.writes.frame(packet, entry.channel, entry.codec.payloadType);
    this.bytes += frame.length;
    return this.writes.write(this.output, frame, entry.track.media.kind === 'video' && !packet.marker);
  }

  play(): void {
    this.playing = true;
    // Each the packet a sender handed over just before it began to wait for the wake below.
    for (const { index, packet } of this.beforePlay.splice(0)) this.deliver(index, packet);
    this.wake();
  }

  private wake(): void {
    for (const waiter of this.drainWaiters.splice(0)) waiter();
  }

  info(): ConnectionInfo {
    return {
      format_name: 'rtsp',
      protocol: this.tracks.some((entry) => entry.udp) ? 'rtsp+udp' : 'rtsp+tcp',
      remote_addr: `${this.socket.remoteAddress}:${this.socket.remotePort}`,
      user_agent: this.userAgent,
      medias: this.tracks.map(({ track, codec }) => `${track.media.kind}, sendonly, ${codec.name}`),
      bytes_send: this.bytes,
    };
  }

  close(): void {
    this.socket.destroy();
  }
}
