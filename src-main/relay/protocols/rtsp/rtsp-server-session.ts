import type { Socket } from 'node:net';
import { randomBytes } from 'node:crypto';
import type { Logger } from '@main/platform/logger';
import type { createRepeatFilter } from '@main/platform/repeat-filter';
import type { Media } from '../../core/media';
import type { ProducerConnection } from '../../core/producer';
import { parseRtpPacket } from '../../core/rtp-packet';
import { CodecMismatchError, SourceUnavailableError } from '../../core/stream';
import type { StreamRegistry } from '../../core/stream-registry';
import type { TaskRegistry } from '../../core/task-registry';
import type { createDigestNonces } from './digest-nonces';
import { requestsFromQuery } from './media-query';
import { PublishedConnection } from './published-connection';
import { formatResponse, RtspParser, RtspProtocolError, type RtspMessage, type RtspReadSink } from './rtsp-parser';
import { authorize } from './rtsp-server-auth';
import { RtspUdpSession, type UdpTrackOutput } from './rtsp-udp-session';
import { chooseTransport, formatUdpTransport } from './rtsp-udp-transport';
import { buildSdp, parseSdp, SdpError } from './sdp';
import { ViewerConsumer } from './viewer-consumer';
import type { ViewerWrites } from './viewer-writes';

export interface RtspServerOptions {
  host: string;
  port: number;
  streams: StreamRegistry;
  tasks: TaskRegistry;
  logger: Logger;
  defaultQuery: string;
  username?: string;
  password?: string;
  /** Ask viewers on this machine for credentials too (by default loopback is exempt). */
  localAuth?: boolean;
  /** A UDP viewer with no RTSP request and no RTCP for this long is closed (default 60 s, as SETUP announces). */
  udpSessionTimeoutMs?: number;
}

/** What every connection of one server shares. */
export interface RtspServerShared {
  options: RtspServerOptions;
  /** Publishers (ffmpeg and exec: children) the relay waits for, by path. */
  expected: Map<string, (connection: ProducerConnection) => void>;
  /** Refused viewers are logged once per stream and cause. */
  refusals: ReturnType<typeof createRepeatFilter>;
  nonces: ReturnType<typeof createDigestNonces>;
  writes: ViewerWrites;
  /** Whether this connection must log in (loopback is exempt unless local_auth). */
  requireAuth: (socket: Socket) => boolean;
  realm: string;
}

type RtspRequest = RtspMessage & { type: 'request' };
type Target = { name: string; query: URLSearchParams } | undefined;

const PUBLIC_METHODS = 'OPTIONS, DESCRIBE, SETUP, PLAY, PAUSE, ANNOUNCE, RECORD, TEARDOWN, GET_PARAMETER, SET_PARAMETER';

/**
 * One RTSP connection to the server: a viewer (DESCRIBE, SETUP over TCP or UDP, PLAY) or a
 * publisher (ANNOUNCE, SETUP over TCP, RECORD). Requests are handled one at a time, in order,
 * as RTSP clients expect, each by the handler of its method.
 */
export class RtspServerSession {
  private readonly id = randomBytes(8).toString('hex');
  private readonly parser = new RtspParser();
  private viewer?: { consumer: ViewerConsumer; stream: string };
  private publisher?: { connection: PublishedConnection; channels: Map<number, number> };
  private udp?: RtspUdpSession;
  private closed = false;
  /** The nonce this connection authenticated with: it stays good for the connection's life. */
  private connectionNonce?: string;
  private queue: Promise<void> = Promise.resolve();
  private readonly handlers: Record<string, (request: RtspRequest, target: Target) => void | Promise<void>> = {
    OPTIONS: (request) => this.send(200, 'OK', request, { Public: PUBLIC_METHODS }),
    GET_PARAMETER: (request) => this.send(200, 'OK', request, { Session: this.id }),
    SET_PARAMETER: (request) => this.send(200, 'OK', request, { Session: this.id }),
    DESCRIBE: (request, target) => this.describe(request, target),
    ANNOUNCE: (request, target) => this.announce(request, target),
    SETUP: (request) => this.setup(request),
    PLAY: (request) => this.play(request),
    RECORD: (request) =>
      this.publisher ? this.send(200, 'OK', request, { Session: this.id }) : this.send(455, 'Method Not Valid in This State', request),
    PAUSE: (request) => this.send(200, 'OK', request, { Session: this.id }),
    TEARDOWN: (request) => this.teardown(request),
  };

  constructor(
    private readonly shared: RtspServerShared,
    private readonly socket: Socket,
    onClosed: () => void,
  ) {
    const untrack = shared.options.tasks.add('socket', `rtsp ${socket.remoteAddress}:${socket.remotePort}`);
    socket.on('close', () => {
      if (this.closed) return;
      this.closed = true;
      untrack();
      onClosed();
      this.releaseViewer();
      this.publisher?.connection.end();
    });
    socket.on('error', (error) => shared.options.logger.debug('rtsp socket error', { error: error.message }));
    socket.setNoDelay(true);
    socket.on('data', (data: Buffer) => this.onData(data));
  }

  private get logger(): Logger {
    return this.shared.options.logger;
  }

  private send(status: number, reason: string, request: RtspRequest, headers: Record<string, string | number> = {}, body = ''): void {
    if (this.closed) return;
    this.socket.write(
      formatResponse(status, reason, { CSeq: request.headers.get('cseq') ?? '0', Server: 'Relay Console', ...headers }, body),
    );
  }

  private refuseTransport(request: RtspRequest, reason: string): void {
    this.send(461, 'Unsupported Transport', request, { 'X-Error': reason });
  }

  /** The viewer leaves its stream and its UDP sockets close (TEARDOWN, or the connection ended). */
  private releaseViewer(): void {
    if (this.viewer) this.shared.options.streams.get(this.viewer.stream)?.removeConsumer(this.viewer.consumer);
    this.viewer = undefined;
    this.udp?.close();
    this.udp = undefined;
  }

  private onData(data: Buffer): void {
    try {
      this.parser.read(data, this.reads);
    } catch (error) {
      if (error instanceof RtspProtocolError) {
        this.socket.end(formatResponse(400, 'Bad Request', { 'X-Error': error.message }));
        return;
      }
      throw error;
    }
  }

  private readonly reads: RtspReadSink = {
    frame: (channel, bytes, start, end) => this.onFrame(channel, bytes, start, end),
    message: (message) => {
      if (message.type !== 'request') return;
      this.queue = this.queue
        .then(() => this.handle(message))
        .catch((error: Error) => {
          this.logger.error('rtsp request failed', { method: message.method, error: error.message });
          this.send(500, 'Internal Server Error', message);
        });
    },
  };

  /** A publisher's interleaved RTP (`bytes[start, end)`) goes into its stream; RTCP and unknown channels are ignored. */
  private onFrame(channel: number, bytes: Buffer, start: number, end: number): void {
    if (!this.publisher) return;
    const index = this.publisher.channels.get(channel);
    if (index === undefined) return;
    try {
      this.publisher.connection.deliver(index, parseRtpPacket(bytes, start, end), end - start);
    } catch {
      /* a malformed RTP packet is dropped; the stream goes on */
    }
  }

  private async handle(request: RtspRequest): Promise<void> {
    this.udp?.touch();
    if (!this.loggedIn(request)) return;
    // Own keys only: a method named like an object's property (toString) is not a handler.
    const handler = Object.hasOwn(this.handlers, request.method) ? this.handlers[request.method] : undefined;
    if (!handler) return this.send(405, 'Method Not Allowed', request, { Allow: PUBLIC_METHODS });
    await handler(request, streamNameOf(request.uri));
  }

  /** True when no login is needed or the request carries a good one; otherwise answers 401. */
  private loggedIn(request: RtspRequest): boolean {
    const { options, nonces, realm } = this.shared;
    if (!this.shared.requireAuth(this.socket)) return true;
    const verdict = authorize(request, { username: options.username!, password: options.password ?? '', realm }, (nonce) =>
      nonce === this.connectionNonce ? 'fresh' : nonces.check(nonce),
    );
    if (verdict.ok) {
      this.connectionNonce = verdict.nonce ?? this.connectionNonce;
      return true;
    }
    // Digest first: most players prefer it, and it never sends the password itself.
    this.socket.write(
      formatResponse(401, 'Unauthorized', {
        CSeq: request.headers.get('cseq') ?? '0',
        'WWW-Authenticate': `Digest realm="${realm}", nonce="${nonces.issue()}"${verdict.stale ? ', stale=TRUE' : ''}`,
      }),
    );
    return false;
  }

  private async describe(request: RtspRequest, target: Target): Promise<void> {
    if (!target) return this.send(400, 'Bad Request', request);
    const { streams, defaultQuery } = this.shared.options;
    const stream = streams.get(target.name);
    if (!stream) return this.send(404, 'Not Found', request);
    const query =
      target.query.has('video') || target.query.has('audio') || target.query.has('mp4') ? target.query : new URLSearchParams(defaultQuery);
    // `source=`: the viewer is that source of this very stream (go2rtc's self-reference), never served by itself.
    const consumer = new ViewerConsumer(
      requestsFromQuery(query),
      this.socket,
      request.headers.get('user-agent') ?? '',
      this.shared.writes,
      target.query.get('source') ?? undefined,
    );
    try {
      await stream.addConsumer(consumer);
    } catch (error) {
      const message = (error as Error).message;
      // Every viewer of a camera that is down gets the same answer: said once per cause.
      if (this.shared.refusals.isNew(`${target.name} ${message}`))
        this.logger.warn('rtsp viewer refused (said once an hour for the same cause)', { stream: target.name, error: message });
      if (error instanceof CodecMismatchError) return this.send(415, 'Unsupported Media Type', request, { 'X-Error': message });
      if (error instanceof SourceUnavailableError) return this.send(503, 'Service Unavailable', request, { 'X-Error': message });
      throw error;
    }
    if (this.closed) return void stream.removeConsumer(consumer);
    this.viewer = { consumer, stream: target.name };
    const sdp = buildSdp(
      consumer.tracks.map(({ track, codec }) => ({ kind: track.media.kind, codec })),
      { sessionName: target.name },
    );
    this.send(200, 'OK', request, { 'Content-Type': 'application/sdp', 'Content-Base': request.uri.replace(/\/?$/, '/') }, sdp);
  }

  private announce(request: RtspRequest, target: Target): void {
    if (!target) return this.send(400, 'Bad Request', request);
    const waiter = this.shared.expected.get(target.name);
    const stream = this.shared.options.streams.get(target.name);
    if (!stream && !waiter) return this.send(404, 'Not Found', request, { 'X-Error': `stream ${target.name} is not declared in streams:` });
    let medias: Media[];
    try {
      medias = parseSdp(request.body.toString('utf8'), 'recvonly');
    } catch (error) {
      if (error instanceof SdpError) return this.send(400, 'Bad Request', request, { 'X-Error': error.message });
      throw error;
    }
    const connection = new PublishedConnection(medias, this.socket, request.body.toString('utf8'), request.headers.get('user-agent') ?? '');
    this.publisher = { connection, channels: new Map() };
    if (waiter) {
      this.shared.expected.delete(target.name);
      waiter(connection);
    } else {
      stream!.addPushed(`rtsp://${this.socket.remoteAddress}:${this.socket.remotePort}/${target.name}`, connection);
    }
    this.send(200, 'OK', request);
  }

  private async setup(request: RtspRequest): Promise<void> {
    const peerAddress = this.socket.remoteAddress ?? '';
    const transport = chooseTransport(request.headers.get('transport') ?? '', peerAddress);
    if (transport.kind === 'refused') return this.refuseTransport(request, transport.reason);
    const trackIndex = Number(/trackID=(\d+)/.exec(request.uri)?.[1] ?? /streamid=(\d+)/.exec(request.uri)?.[1] ?? '0');
    if (transport.kind === 'udp') return this.setupUdp(request, transport, trackIndex, peerAddress);
    const channel = transport.rtpChannel;
    if (this.publisher) {
      const medias = this.publisher.connection.medias;
      const byControl = medias.findIndex((m) => m.control && m.control !== '*' && request.uri.endsWith(m.control));
      this.publisher.channels.set(channel, byControl >= 0 ? byControl : Math.min(trackIndex, medias.length - 1));
    } else if (this.viewer) {
      const entry = this.viewer.consumer.tracks[trackIndex];
      if (!entry) return this.send(404, 'Not Found', request);
      if (this.viewer.consumer.tracks.some((other) => other.udp)) {
        return this.refuseTransport(request, 'this session already plays over UDP; one session uses one transport');
      }
      entry.channel = channel;
    } else {
      return this.send(455, 'Method Not Valid in This State', request);
    }
    this.send(200, 'OK', request, {
      Transport: `RTP/AVP/TCP;unicast;interleaved=${channel}-${transport.rtcpChannel}`,
      Session: `${this.id};timeout=60`,
    });
  }

  private async setupUdp(
    request: RtspRequest,
    transport: Extract<ReturnType<typeof chooseTransport>, { kind: 'udp' }>,
    trackIndex: number,
    peerAddress: string,
  ): Promise<void> {
    if (this.publisher || transport.record) {
      return this.send(461, 'Unsupported Transport: publish over TCP (RTP/AVP/TCP)', request, {
        'X-Error': 'publishing over UDP is not supported; publish over TCP (ffmpeg: -rtsp_transport tcp)',
      });
    }
    // Without DESCRIBE there is no track to send; a client that then retries over TCP gets 455.
    if (!this.viewer) return this.refuseTransport(request, 'DESCRIBE the stream before a UDP SETUP');
    const entry = this.viewer.consumer.tracks[trackIndex];
    if (!entry) return this.send(404, 'Not Found', request);
    if (this.viewer.consumer.tracks.some((other) => other.channel !== undefined)) {
      return this.refuseTransport(request, 'this session already plays over TCP; one session uses one transport');
    }
    if (this.closed || !this.socket.localAddress) return;
    if (entry.udp) this.udp?.removeOutput(entry.udp); // set up again: the new ports replace the old
    entry.udp = undefined;
    const { tasks, udpSessionTimeoutMs } = this.shared.options;
    const udpSession = (this.udp ??= new RtspUdpSession({
      localAddress: this.socket.localAddress ?? '',
      peerAddress,
      tasks,
      logger: this.logger,
      timeoutMs: udpSessionTimeoutMs,
      onTimeout: () => {
        this.releaseViewer();
        this.socket.destroy();
      },
    }));
    let output: UdpTrackOutput;
    try {
      output = await udpSession.addOutput({ rtpPort: transport.rtpPort, rtcpPort: transport.rtcpPort }, entry.codec.clockRate);
    } catch (error) {
      if (this.closed) return;
      this.logger.warn('rtsp udp setup failed', { error: (error as Error).message });
      return this.refuseTransport(request, `no UDP port pair: ${(error as Error).message}`);
    }
    entry.udp = output;
    this.send(200, 'OK', request, {
      Transport: formatUdpTransport(output.client, output.server, output.ssrc),
      Session: `${this.id};timeout=${Math.round((udpSessionTimeoutMs ?? 60_000) / 1000)}`,
    });
  }

  private play(request: RtspRequest): void {
    if (!this.viewer) return this.send(455, 'Method Not Valid in This State', request);
    this.send(200, 'OK', request, { Session: this.id, Range: 'npt=0.000-' });
    this.viewer.consumer.play();
  }

  private teardown(request: RtspRequest): void {
    this.releaseViewer();
    this.send(200, 'OK', request, { Session: this.id });
    this.socket.end();
  }
}

function streamNameOf(uri: string): { name: string; query: URLSearchParams } | undefined {
  try {
    const url = new URL(uri);
    const path = decodeURIComponent(url.pathname.replace(/^\/+/, ''))
      .replace(/\/(trackID=\d+|streamid=\d+)$/, '')
      .replace(/\/+$/, '');
    return { name: path, query: url.searchParams };
  } catch {
    return undefined;
  }
}
