import { randomBytes } from 'node:crypto';
import type { RemoteInfo, Socket as UdpSocket } from 'node:dgram';
import type { Logger } from '@main/platform/logger';
import { rtpHeader, type RtpPacket } from '../../core/rtp-packet';
import type { TaskRegistry } from '../../core/task-registry';
import { bindRtpPair, closeRtpPair } from './rtsp-udp-ports';
import { buildSenderReport } from './rtsp-udp-rtcp';
import { normalizeAddress } from './rtsp-udp-transport';
import { TokenBucket } from '../../core/token-bucket';

/**
 * How a track's datagrams are shaped: up to PACING_BURST at once, then PACING_PER_MS a
 * millisecond. The burst fits a receive buffer of Linux's default size (about 90 full
 * datagrams in 212,992 bytes), so a live keyframe mostly goes out whole. The rate, about
 * 5.6 MB/s with full-size datagrams, is far above any camera's, and a player still reads that
 * fast while it decodes to probe the stream: a new viewer's cached GOP (megabytes at once)
 * sent at 15 MB/s overran ffmpeg's receive buffer (341 such datagrams) on a 2-core machine in
 * about one join of five.
 */
const PACING_BURST = 64;
const PACING_PER_MS = 4;
/**
 * Datagrams a track may have waiting, in the pacing queue or in the socket: a whole cached GOP
 * (at most 4096 packets) and the live packets that come while it goes out.
 */
const SEND_QUEUE_LIMIT = 4096 + 512;

export interface RtspUdpSessionOptions {
  /** The RTSP connection's local address: every RTP/RTCP pair binds there. */
  localAddress: string;
  /** The RTSP client's address: the only place RTP and RTCP are sent to. */
  peerAddress: string;
  tasks: TaskRegistry;
  logger: Logger;
  /** Called once when neither an RTSP request nor a datagram came from the client for `timeoutMs`. */
  onTimeout: () => void;
  /** As the SETUP answer's `Session: ...;timeout=60` promises. */
  timeoutMs?: number;
  /** Sender reports per track, RFC 3550 suggests about 5 s. */
  reportIntervalMs?: number;
  /** How often liveness and due reports are checked. */
  tickMs?: number;
  /** Datagrams a track may have waiting (paced or in the socket) before new ones are dropped. */
  sendQueueLimit?: number;
}

export interface UdpPorts {
  rtpPort: number;
  rtcpPort: number;
}

/**
 * One track sent over UDP: its RTP/RTCP socket pair on the server, the client's ports, and the
 * counts its sender reports carry.
 */
export class UdpTrackOutput {
  /** Every packet of this output carries this SSRC (the one announced in the SETUP answer). */
  readonly ssrc = randomBytes(4).readUInt32BE(0);
  readonly server: UdpPorts;
  packets = 0;
  octets = 0;
  drops = 0;
  /** Datagrams handed to the socket whose send has not called back yet. */
  private inFlight = 0;
  private last?: { timestamp: number; at: number };
  private reportedAt = 0;
  private closed = false;
  /** Datagrams (header, payload) waiting for their turn (see `send`), and the timer that lets them out. */
  private readonly paced: Array<[Buffer, Uint8Array]> = [];
  private pacer?: NodeJS.Timeout;
  private readonly bucket = new TokenBucket(PACING_BURST, PACING_PER_MS, performance.now());

  constructor(
    private readonly sockets: { rtp: UdpSocket; rtcp: UdpSocket },
    readonly client: UdpPorts,
    private readonly peerAddress: string,
    private readonly clockRate: number,
    private readonly limit: number,
    private readonly logger: Logger,
    private readonly untrack: () => void,
  ) {
    this.server = { rtpPort: sockets.rtp.address().port, rtcpPort: sockets.rtcp.address().port };
  }

  /** One callback for every datagram (none made per packet): a failed send counts as a drop. */
  private readonly sent = (error: Error | null): void => {
    this.inFlight--;
    if (!error) return;
    this.drops++;
    this.logger.debug('rtsp udp send failed', { error: error.message });
  };

  /**
   * Hands one packet on and returns its bytes (0: dropped). It never waits: packets beyond the
   * pacing burst (a new viewer's cached GOP, megabytes at once) queue and go out at the pacing
   * rate, in order, so the player's socket buffer is not overrun; live packets come spread out
   * and go straight through. When the socket or the queue is this far behind, the packet is
   * dropped, as the network would. A packet larger than a datagram fails in the kernel and counts
   * as a drop. Only the 12-byte header is this viewer's own: the datagram gathers it with the
   * payload every viewer shares (one sendmsg each, no copy of the payload).
   */
  send(packet: RtpPacket, payloadType = packet.payloadType): number {
    if (this.closed) return 0;
    if (this.paced.length + this.inFlight >= this.limit) {
      this.drops++;
      return 0;
    }
    const header = rtpHeader(packet, payloadType, this.ssrc);
    this.packets++;
    this.octets += packet.payload.length;
    this.last = { timestamp: packet.timestamp, at: Date.now() };
    if (this.paced.length === 0 && this.bucket.available(performance.now()) > 0) {
      this.bucket.take(1);
      this.transmit(header, packet.payload);
    } else {
      this.paced.push([header, packet.payload]);
      this.pacer ??= setInterval(() => this.drainPaced(), 1);
    }
    return 12 + packet.payload.length;
  }

  private transmit(header: Buffer, payload: Uint8Array): void {
    this.inFlight++;
    // The RTP socket is connected to the client's port: no address to resolve per datagram.
    this.sockets.rtp.send([header, payload], this.sent);
  }

  private drainPaced(): void {
    const due = this.paced.splice(0, this.bucket.available(performance.now()));
    this.bucket.take(due.length);
    for (const [header, payload] of due) this.transmit(header, payload);
    if (this.paced.length > 0) return;
    clearInterval(this.pacer);
    this.pacer = undefined;
  }

  /** Sends a sender report when one is due (and RTP went out, so its timestamp means something). */
  reportIfDue(now: number, intervalMs: number, cname: string): void {
    if (this.closed || !this.last || now - this.reportedAt < intervalMs) return;
    this.reportedAt = now;
    const elapsed = Math.round(((now - this.last.at) * this.clockRate) / 1000);
    const report = buildSenderReport({
      ssrc: this.ssrc,
      wallClockMs: now,
      rtpTimestamp: this.last.timestamp + elapsed,
      packets: this.packets,
      octets: this.octets,
      cname,
    });
    this.sockets.rtcp.send(report, this.client.rtcpPort, this.peerAddress, (error) => {
      if (error) this.logger.debug('rtsp udp sender report failed', { error: error.message });
    });
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.pacer);
    this.paced.length = 0;
    closeRtpPair(this.sockets);
    this.untrack();
  }
}

/**
 * The UDP side of one RTSP viewer session: a socket pair per track set up over UDP, sender
 * reports every few seconds, and the session timeout. RTP only ever goes to the address of the
 * RTSP connection. Datagrams from the client (receiver reports, NAT punches) keep the session
 * alive and are otherwise ignored.
 */
export class RtspUdpSession {
  private readonly outputs = new Set<UdpTrackOutput>();
  private readonly peer: string;
  private readonly cname = `relay-${randomBytes(6).toString('hex')}`;
  private readonly timer: NodeJS.Timeout;
  private readonly untrackTimer: () => void;
  private lastActivity = Date.now();
  private closed = false;

  constructor(private readonly options: RtspUdpSessionOptions) {
    this.peer = normalizeAddress(options.peerAddress);
    this.untrackTimer = options.tasks.add('timer', `rtsp udp session ${this.peer}: reports, ${this.timeoutMs / 1000} s timeout`);
    this.timer = setInterval(() => this.tick(), options.tickMs ?? 1_000);
    this.timer.unref();
  }

  private get timeoutMs(): number {
    return this.options.timeoutMs ?? 60_000;
  }

  /** An RTSP request (or any sign of the client) keeps the session alive. */
  touch(): void {
    this.lastActivity = Date.now();
  }

  /** Binds a socket pair for one track whose RTP goes to `client.rtpPort` and RTCP to `client.rtcpPort`. */
  async addOutput(client: UdpPorts, clockRate: number): Promise<UdpTrackOutput> {
    const local = normalizeAddress(this.options.localAddress);
    const sockets = await bindRtpPair(local);
    const untrackRtp = this.options.tasks.add(
      'socket',
      `rtsp udp rtp ${local}:${sockets.rtp.address().port} → ${this.peer}:${client.rtpPort}`,
    );
    const untrackRtcp = this.options.tasks.add(
      'socket',
      `rtsp udp rtcp ${local}:${sockets.rtcp.address().port} → ${this.peer}:${client.rtcpPort}`,
    );
    const untrack = () => {
      untrackRtp();
      untrackRtcp();
    };
    // Connected once: each send then skips Node's address lookup and the kernel's route lookup.
    await new Promise<void>((resolve) => sockets.rtp.connect(client.rtpPort, this.peer, resolve));
    const output = new UdpTrackOutput(
      sockets,
      client,
      this.peer,
      clockRate,
      this.options.sendQueueLimit ?? SEND_QUEUE_LIMIT,
      this.options.logger,
      untrack,
    );
    for (const socket of [sockets.rtp, sockets.rtcp]) {
      socket.on('message', (_data: Buffer, from: RemoteInfo) => {
        if (normalizeAddress(from.address) === this.peer) this.touch();
      });
      socket.on('error', (error) => this.options.logger.debug('rtsp udp socket error', { error: error.message }));
    }
    if (this.closed) {
      output.close(); // the RTSP connection ended while the pair was being bound
      throw new Error('the RTSP session ended during SETUP');
    }
    this.outputs.add(output);
    return output;
  }

  removeOutput(output: UdpTrackOutput): void {
    output.close();
    this.outputs.delete(output);
  }

  get outputCount(): number {
    return this.outputs.size;
  }

  private tick(): void {
    const now = Date.now();
    if (now - this.lastActivity > this.timeoutMs) {
      this.options.logger.info('rtsp udp session timed out', { peer: this.peer, timeoutS: this.timeoutMs / 1000 });
      this.close();
      this.options.onTimeout();
      return;
    }
    for (const output of this.outputs) output.reportIfDue(now, this.options.reportIntervalMs ?? 5_000, this.cname);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.timer);
    this.untrackTimer();
    for (const output of this.outputs) output.close();
    this.outputs.clear();
  }
}
