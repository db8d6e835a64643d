import { randomBytes } from 'node:crypto';
import { createSocket, type RemoteInfo } from 'node:dgram';
import { lookup } from 'node:dns/promises';
import { isIPv6 } from 'node:net';
import type { Logger } from '@main/platform/logger';
import { parseRtpPacket, serializeRtpPacket, type RtpPacket } from '../../core/rtp-packet';
import type { TaskRegistry } from '../../core/task-registry';
import { buildReceiverReport, findSenderReport } from './rtsp-client-udp-rtcp';
import { RtpReceiveStats } from './rtsp-client-udp-stats';
import type { PortPair } from './rtsp-client-udp-transport';
import { bindRtpPair, closeRtpPair, type RtpSocketPair } from './rtsp-udp-ports';
import { normalizeAddress } from './rtsp-udp-transport';

export interface RtspClientUdpOptions {
  /** Where the sockets and the report timer show up (`GET /api/stack`). */
  tasks?: TaskRegistry;
  logger?: Logger;
  /** Receiver reports per track; RFC 3550 suggests about 5 s, and they keep NAT mappings open. */
  reportIntervalMs?: number;
  /** Called for every datagram from the server (feeds the no-data watchdog). */
  onDatagram?: () => void;
}

interface UdpTrack {
  readonly sockets: RtpSocketPair;
  readonly stats: RtpReceiveStats;
  readonly payloadType: number;
  /** The server's ports from its SETUP answer; without them nothing is sent back. */
  server?: PortPair;
  readonly untrack: () => void;
}

/** The local address the system routes to `address` from (what a TCP connection there uses too). */
async function localAddressToward(address: string): Promise<string> {
  const probe = createSocket(isIPv6(address) ? 'udp6' : 'udp4');
  try {
    // Connecting a UDP socket sends nothing; it only asks the routing table for a source address.
    await new Promise<void>((resolve, reject) => {
      probe.once('error', reject);
      probe.connect(9, address, resolve);
    });
    return probe.address().address;
  } catch {
    return isIPv6(address) ? '::' : '0.0.0.0';
  } finally {
    probe.close();
  }
}

/**
 * The UDP side of one RTSP pull: per media an RTP/RTCP socket pair, datagrams taken only from
 * the server's address, duplicates dropped (late and lost packets are passed on as they come;
 * depacketizers cope with gaps), and receiver reports to the server's RTCP port, which also keep
 * NAT mappings and camera sessions open.
 */
export class RtspClientUdp {
  bytesReceived = 0;
  /** Datagrams from an address other than the server's, dropped. */
  ignored = 0;
  private readonly tracks = new Map<number, UdpTrack>();
  private readonly ssrc = randomBytes(4).readUInt32BE(0);
  private readonly cname = `relay-${randomBytes(6).toString('hex')}`;
  private sink?: (mediaIndex: number, packet: RtpPacket) => void;
  private reportTimer?: NodeJS.Timeout;
  private untrackTimer?: () => void;
  private closed = false;

  private constructor(
    /** The one address datagrams are taken from and reports are sent to. */
    readonly serverAddress: string,
    readonly localAddress: string,
    private readonly options: RtspClientUdpOptions,
  ) {}

  /** Resolves the RTSP URL's host (as the TCP connection did) and the local address toward it. */
  static async open(url: string, options: RtspClientUdpOptions = {}): Promise<RtspClientUdp> {
    const host = new URL(url).hostname.replace(/^\[(.*)\]$/, '$1');
    const { address } = await lookup(host);
    const server = normalizeAddress(address);
    return new RtspClientUdp(server, await localAddressToward(server), options);
  }

  /** Binds an even/odd port pair for one media; the ports go into its SETUP's `client_port`. */
  async addTrack(mediaIndex: number, clockRate: number, payloadType: number): Promise<PortPair> {
    const sockets = await bindRtpPair(this.localAddress);
    const ports = { rtpPort: sockets.rtp.address().port, rtcpPort: sockets.rtcp.address().port };
    if (this.closed) {
      closeRtpPair(sockets);
      throw new Error('rtsp: the connection closed during SETUP');
    }
    const tasks = this.options.tasks;
    const untrackRtp = tasks?.add('socket', `rtsp client udp rtp ${this.localAddress}:${ports.rtpPort} ← ${this.serverAddress}`);
    const untrackRtcp = tasks?.add('socket', `rtsp client udp rtcp ${this.localAddress}:${ports.rtcpPort} ← ${this.serverAddress}`);
    const track: UdpTrack = {
      sockets,
      stats: new RtpReceiveStats(clockRate),
      payloadType,
      untrack: () => {
        untrackRtp?.();
        untrackRtcp?.();
      },
    };
    sockets.rtp.on('message', (data: Buffer, from: RemoteInfo) => this.onRtp(mediaIndex, track, data, from));
    sockets.rtcp.on('message', (data: Buffer, from: RemoteInfo) => this.onRtcp(track, data, from));
    for (const socket of [sockets.rtp, sockets.rtcp]) {
      socket.on('error', (error) => this.options.logger?.debug('rtsp client udp socket error', { error: error.message }));
    }
    this.tracks.set(mediaIndex, track);
    return ports;
  }

  setServerPorts(mediaIndex: number, server: PortPair | undefined): void {
    const track = this.tracks.get(mediaIndex);
    if (track) track.server = server;
  }

  /**
   * Packets start flowing into `sink`. Call it before PLAY: it opens the way through NATs (an
   * empty RTP packet and a receiver report to each server port) and starts the reports.
   */
  start(sink: (mediaIndex: number, packet: RtpPacket) => void): void {
    this.sink = sink;
    if (this.closed || this.reportTimer) return;
    for (const track of this.tracks.values()) {
      if (!track.server) continue;
      const punch = serializeRtpPacket({
        marker: false,
        payloadType: track.payloadType,
        sequenceNumber: 0,
        timestamp: 0,
        ssrc: this.ssrc,
        payload: new Uint8Array(0),
      });
      this.sendTo(track.sockets.rtp, punch, track.server.rtpPort);
    }
    this.report();
    this.reportTimer = setInterval(() => this.report(), this.options.reportIntervalMs ?? 5_000);
    this.reportTimer.unref();
    this.untrackTimer = this.options.tasks?.add('timer', `rtsp client udp receiver reports to ${this.serverAddress}`);
  }

  /** RTP to the server on a media it receives (its backchannel); false when it cannot go out. */
  send(mediaIndex: number, packet: RtpPacket): boolean {
    const track = this.tracks.get(mediaIndex);
    if (this.closed || !track?.server) return false;
    this.sendTo(track.sockets.rtp, serializeRtpPacket(packet), track.server.rtpPort);
    return true;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.reportTimer);
    this.untrackTimer?.();
    for (const track of this.tracks.values()) {
      closeRtpPair(track.sockets);
      track.untrack();
    }
    this.tracks.clear();
  }

  /** Whether a datagram is the server's; anyone else's is counted and dropped. */
  private fromServer(data: Buffer, from: RemoteInfo): boolean {
    if (this.closed) return false;
    if (normalizeAddress(from.address) !== this.serverAddress) {
      if (this.ignored++ === 0)
        this.options.logger?.debug('rtsp client udp: dropping datagrams that are not from the server', {
          from: from.address,
          server: this.serverAddress,
        });
      return false;
    }
    this.bytesReceived += data.length;
    this.options.onDatagram?.();
    return true;
  }

  private onRtp(mediaIndex: number, track: UdpTrack, data: Buffer, from: RemoteInfo): void {
    if (!this.fromServer(data, from) || !this.sink) return;
    let packet: RtpPacket;
    try {
      packet = parseRtpPacket(data);
    } catch {
      return; // a malformed RTP packet is dropped
    }
    const verdict = track.stats.accept(packet.sequenceNumber, packet.timestamp, packet.ssrc, performance.now());
    if (verdict === 'new' || verdict === 'late') this.sink(mediaIndex, packet);
  }

  private onRtcp(track: UdpTrack, data: Buffer, from: RemoteInfo): void {
    if (!this.fromServer(data, from)) return;
    const report = findSenderReport(data);
    if (report) track.stats.noteSenderReport(report.ssrc, report.ntpMiddle, performance.now());
  }

  private report(): void {
    const now = performance.now();
    for (const track of this.tracks.values()) {
      if (!track.server) continue;
      const block = track.stats.reportBlock(now);
      this.sendTo(track.sockets.rtcp, buildReceiverReport(this.ssrc, block ? [block] : [], this.cname), track.server.rtcpPort);
    }
  }

  private sendTo(socket: RtpSocketPair['rtp'], bytes: Uint8Array, port: number): void {
    socket.send(bytes, port, this.serverAddress, (error) => {
      if (error) this.options.logger?.debug('rtsp client udp send failed', { error: error.message });
    });
  }
}
