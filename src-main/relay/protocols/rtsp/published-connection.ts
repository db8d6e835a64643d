import type { Socket } from 'node:net';
import { describeMedia, type Media } from '../../core/media';
import type { ConnectionInfo, ProducerConnection } from '../../core/producer';
import type { RtpPacket } from '../../core/rtp-packet';

/** A pushed source: an RTSP client that ANNOUNCEd and RECORDs into a stream. */
export class PublishedConnection implements ProducerConnection {
  private sink?: (index: number, packet: RtpPacket) => void;
  private resolveClosed!: (error?: Error) => void;
  readonly closed = new Promise<Error | undefined>((resolve) => (this.resolveClosed = resolve));
  bytes = 0;

  constructor(
    readonly medias: Media[],
    private readonly socket: Socket,
    private readonly sdp: string,
    private readonly userAgent: string,
  ) {}

  start(sink: (index: number, packet: RtpPacket) => void): void {
    this.sink = sink;
  }

  deliver(index: number, packet: RtpPacket, size: number): void {
    this.bytes += size;
    this.sink?.(index, packet);
  }

  end(error?: Error): void {
    this.resolveClosed(error);
  }

  close(): void {
    this.socket.destroy();
  }

  info(): ConnectionInfo {
    return {
      format_name: 'rtsp',
      protocol: 'rtsp+tcp',
      remote_addr: `${this.socket.remoteAddress}:${this.socket.remotePort}`,
      source: 'publish',
      sdp: this.sdp,
      user_agent: this.userAgent,
      medias: this.medias.map(describeMedia),
      bytes_recv: this.bytes,
    };
  }
}
