import { createServer, type Server, type Socket } from 'node:net';
import { randomBytes } from 'node:crypto';
import type { Logger } from '../../platform/logger';
import { listen } from '../../platform/listen';
import { isLoopbackAddress } from '../../platform/http/request-guard';
import type { Consumer } from '../core/consumer';
import { codecFromAlias, describeMedia, type Codec, type Media } from '../core/media';
import type { MediaRequest, TrackMatch } from '../core/negotiation';
import type { ConnectionInfo, ProducerConnection } from '../core/producer';
import { parseRtpPacket, type RtpPacket } from '../core/rtp-packet';
import { CodecMismatchError, SourceUnavailableError } from '../core/stream';
import type { StreamRegistry } from '../core/stream-registry';
import type { TaskRegistry } from '../core/task-registry';
import type { PacketSink, Track } from '../core/track';
import { formatResponse, RtspParser, RtspProtocolError, type RtspMessage } from './rtsp-parser';
import { createViewerWrites, type ViewerOutput, type ViewerWrites } from './viewer-writes';
import { buildSdp, parseSdp, SdpError } from './sdp';
import { digestResponse, parseChallenge } from './digest-auth';
import { createDigestNonces, type NonceState } from './digest-nonces';
import { chooseTransport, formatUdpTransport } from './rtsp-udp-transport';
import { RtspUdpSession, type UdpTrackOutput } from './rtsp-udp-session';
import { createRepeatFilter } from '../../platform/repeat-filter';
import { safeEqual } from '../../platform/safe-equal';

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

export interface RunningRtspServer {
  readonly port: number;
  readonly server: Server;
  /**
   * Waits for a publisher (an ffmpeg or exec: child) to ANNOUNCE at `rtsp://127.0.0.1:<port>/<path>`;
   * such a publish does not need a declared stream and never shows in the stream list.
   */
  expectPublish(path: string, timeoutMs: number): Promise<ProducerConnection>;
  close(): Promise<void>;
}

const VIEWER_SOCKET_BUFFER = 512 * 1024;

const PUBLIC_METHODS = 'OPTIONS, DESCRIBE, SETUP, PLAY, PAUSE, ANNOUNCE, RECORD, TEARDOWN, GET_PARAMETER, SET_PARAMETER';

/** `video&audio`, `video=h264,h265&audio=aac`, `mp4` → what the viewer accepts. */
export function requestsFromQuery(query: URLSearchParams): MediaRequest[] {
  const requests: MediaRequest[] = [];
  for (const kind of ['video', 'audio'] as const) {
    for (const value of query.getAll(kind)) requests.push({ kind, codecs: value.split(',').map(codecFromAlias) });
  }
  if (query.has('mp4')) {
    const flac = query.get('mp4') === 'flac';
    const all = query.get('mp4') === 'all';
    if (!query.has('video')) requests.push({ kind: 'video', codecs: ['H264', 'H265'] });
    if (!query.has('audio')) requests.push({ kind: 'audio', codecs: ['MPEG4-GENERIC', ...(flac ? ['PCMA', 'PCMU', 'L16'] : []), ...(all ? ['OPUS', 'MPA'] : [])] });
  }
  return requests;
}

/** A pushed source: an RTSP client that ANNOUNCEd and RECORDs into a stream. */
class PublishedConnection implements ProducerConnection {
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

/**
 * A viewer: packets queue in its senders until PLAY, then go out as interleaved frames on the
 * RTSP connection, or as datagrams for the tracks set up over UDP.
 */
class ViewerConsumer implements Consumer {
  readonly tracks: Array<{ track: Track; match: TrackMatch; channel?: number; udp?: UdpTrackOutput; codec: Codec }> = [];
  private playing = false;
  private readonly drainWaiters: Array<() => void> = [];
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
        if (!this.playing) return false;
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
      },
      onDrain: (callback) => void this.drainWaiters.push(callback),
    };
  }

  play(): void {
    this.playing = true;
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

function streamNameOf(uri: string): { name: string; query: URLSearchParams } | undefined {
  try {
    const url = new URL(uri);
    const path = decodeURIComponent(url.pathname.replace(/^\/+/, '')).replace(/\/(trackID=\d+|streamid=\d+)$/, '').replace(/\/+$/, '');
    return { name: path, query: url.searchParams };
  } catch {
    return undefined;
  }
}

/**
 * The relay's RTSP server: PLAY of any stream at rtsp://host:port/<name> (TCP interleaved or
 * UDP unicast) and publishing into a stream with ANNOUNCE/RECORD (TCP interleaved).
 */
export async function startRtspServer(options: RtspServerOptions): Promise<RunningRtspServer> {
  const { streams, logger, tasks } = options;
  const sockets = new Set<Socket>();
  const expected = new Map<string, (connection: ProducerConnection) => void>();
  const refusals = createRepeatFilter();
  const requireAuth = (socket: Socket) =>
    !!options.username && (options.localAuth || !isLoopbackAddress(socket.remoteAddress?.replace(/^::ffff:/, '') ?? ''));
  const realm = 'Relay Console';
  const nonces = createDigestNonces();

  const writes = createViewerWrites();
  // A keyframe of a 4K camera is several hundred kilobytes: a viewer's socket takes it whole
  // within one turn instead of pausing its sender at Node's 16 KiB default.
  const server = createServer({ highWaterMark: VIEWER_SOCKET_BUFFER }, (socket) => {
    sockets.add(socket);
    const untrack = tasks.add('socket', `rtsp ${socket.remoteAddress}:${socket.remotePort}`);
    const parser = new RtspParser();
    const session = randomBytes(8).toString('hex');
    let viewer: { consumer: ViewerConsumer; stream: string } | undefined;
    let publisher: { connection: PublishedConnection; channels: Map<number, number> } | undefined;
    let udp: RtspUdpSession | undefined;
    let closed = false;
    /** The nonce this connection authenticated with: it stays good for the connection's life. */
    let connectionNonce: string | undefined;

    const send = (status: number, reason: string, request: RtspMessage & { type: 'request' }, headers: Record<string, string | number> = {}, body = '') => {
      if (closed) return;
      socket.write(formatResponse(status, reason, { CSeq: request.headers.get('cseq') ?? '0', Server: 'Relay Console', ...headers }, body));
    };

    /** The viewer leaves its stream and its UDP sockets close (TEARDOWN, or the connection ended). */
    const releaseViewer = () => {
      if (viewer) streams.get(viewer.stream)?.removeConsumer(viewer.consumer);
      viewer = undefined;
      udp?.close();
      udp = undefined;
    };

    const refuseTransport = (request: RtspMessage & { type: 'request' }, reason: string) =>
      send(461, 'Unsupported Transport', request, { 'X-Error': reason });

    const cleanup = () => {
      if (closed) return;
      closed = true;
      sockets.delete(socket);
      untrack();
      releaseViewer();
      publisher?.connection.end();
    };
    socket.on('close', cleanup);
    socket.on('error', (error) => logger.debug('rtsp socket error', { error: error.message }));
    socket.setNoDelay(true);

    const handle = async (request: RtspMessage & { type: 'request' }): Promise<void> => {
      udp?.touch();
      if (requireAuth(socket)) {
        const verdict = authorize(request, { username: options.username!, password: options.password ?? '', realm }, (nonce) =>
          nonce === connectionNonce ? 'fresh' : nonces.check(nonce),
        );
        if (verdict.ok) {
          connectionNonce = verdict.nonce ?? connectionNonce;
        } else {
          // Digest first: most players prefer it, and it never sends the password itself.
          socket.write(
            formatResponse(401, 'Unauthorized', {
              CSeq: request.headers.get('cseq') ?? '0',
              'WWW-Authenticate': `Digest realm="${realm}", nonce="${nonces.issue()}"${verdict.stale ? ', stale=TRUE' : ''}`,
            }),
          );
          return;
        }
      }
      const target = streamNameOf(request.uri);
      switch (request.method) {
        case 'OPTIONS':
          return send(200, 'OK', request, { Public: PUBLIC_METHODS });
        case 'GET_PARAMETER':
        case 'SET_PARAMETER':
          return send(200, 'OK', request, { Session: session });
        case 'DESCRIBE': {
          if (!target) return send(400, 'Bad Request', request);
          const stream = streams.get(target.name);
          if (!stream) return send(404, 'Not Found', request);
          const query = target.query.has('video') || target.query.has('audio') || target.query.has('mp4') ? target.query : new URLSearchParams(options.defaultQuery);
          // `source=`: the viewer is that source of this very stream (go2rtc's self-reference), never served by itself.
          const consumer = new ViewerConsumer(requestsFromQuery(query), socket, request.headers.get('user-agent') ?? '', writes, target.query.get('source') ?? undefined);
          try {
            await stream.addConsumer(consumer);
          } catch (error) {
            const message = (error as Error).message;
            // Every viewer of a camera that is down gets the same answer: said once per cause.
            if (refusals.isNew(`${target.name} ${message}`)) logger.warn('rtsp viewer refused (said once an hour for the same cause)', { stream: target.name, error: message });
            if (error instanceof CodecMismatchError) return send(415, 'Unsupported Media Type', request, { 'X-Error': message });
            if (error instanceof SourceUnavailableError) return send(503, 'Service Unavailable', request, { 'X-Error': message });
            throw error;
          }
          if (closed) return void stream.removeConsumer(consumer);
          viewer = { consumer, stream: target.name };
          const sdp = buildSdp(consumer.tracks.map(({ track, codec }) => ({ kind: track.media.kind, codec })), { sessionName: target.name });
          return send(200, 'OK', request, { 'Content-Type': 'application/sdp', 'Content-Base': request.uri.replace(/\/?$/, '/') }, sdp);
        }
        case 'ANNOUNCE': {
          if (!target) return send(400, 'Bad Request', request);
          const waiter = expected.get(target.name);
          const stream = streams.get(target.name);
          if (!stream && !waiter) return send(404, 'Not Found', request, { 'X-Error': `stream ${target.name} is not declared in streams:` });
          let medias: Media[];
          try {
            medias = parseSdp(request.body.toString('utf8'), 'recvonly');
          } catch (error) {
            if (error instanceof SdpError) return send(400, 'Bad Request', request, { 'X-Error': error.message });
            throw error;
          }
          const connection = new PublishedConnection(medias, socket, request.body.toString('utf8'), request.headers.get('user-agent') ?? '');
          publisher = { connection, channels: new Map() };
          if (waiter) {
            expected.delete(target.name);
            waiter(connection);
          } else {
            stream!.addPushed(`rtsp://${socket.remoteAddress}:${socket.remotePort}/${target.name}`, connection);
          }
          return send(200, 'OK', request);
        }
        case 'SETUP': {
          const peerAddress = socket.remoteAddress ?? '';
          const transport = chooseTransport(request.headers.get('transport') ?? '', peerAddress);
          if (transport.kind === 'refused') return refuseTransport(request, transport.reason);
          const trackIndex = Number(/trackID=(\d+)/.exec(request.uri)?.[1] ?? /streamid=(\d+)/.exec(request.uri)?.[1] ?? '0');
          if (transport.kind === 'udp') {
            if (publisher || transport.record) {
              return send(461, 'Unsupported Transport: publish over TCP (RTP/AVP/TCP)', request, { 'X-Error': 'publishing over UDP is not supported; publish over TCP (ffmpeg: -rtsp_transport tcp)' });
            }
            // Without DESCRIBE there is no track to send; a client that then retries over TCP gets 455.
            if (!viewer) return refuseTransport(request, 'DESCRIBE the stream before a UDP SETUP');
            const entry = viewer.consumer.tracks[trackIndex];
            if (!entry) return send(404, 'Not Found', request);
            if (viewer.consumer.tracks.some((other) => other.channel !== undefined)) {
              return refuseTransport(request, 'this session already plays over TCP; one session uses one transport');
            }
            if (closed || !socket.localAddress) return;
            if (entry.udp) udp?.removeOutput(entry.udp); // set up again: the new ports replace the old
            entry.udp = undefined;
            const udpSession = (udp ??= new RtspUdpSession({
              localAddress: socket.localAddress ?? '',
              peerAddress,
              tasks,
              logger,
              timeoutMs: options.udpSessionTimeoutMs,
              onTimeout: () => {
                releaseViewer();
                socket.destroy();
              },
            }));
            let output: UdpTrackOutput;
            try {
              output = await udpSession.addOutput({ rtpPort: transport.rtpPort, rtcpPort: transport.rtcpPort }, entry.codec.clockRate);
            } catch (error) {
              if (closed) return;
              logger.warn('rtsp udp setup failed', { error: (error as Error).message });
              return refuseTransport(request, `no UDP port pair: ${(error as Error).message}`);
            }
            entry.udp = output;
            return send(200, 'OK', request, { Transport: formatUdpTransport(output.client, output.server, output.ssrc), Session: `${session};timeout=${Math.round((options.udpSessionTimeoutMs ?? 60_000) / 1000)}` });
          }
          const channel = transport.rtpChannel;
          if (publisher) {
            const medias = publisher.connection.medias;
            const byControl = medias.findIndex((m) => m.control && m.control !== '*' && request.uri.endsWith(m.control));
            publisher.channels.set(channel, byControl >= 0 ? byControl : Math.min(trackIndex, medias.length - 1));
          } else if (viewer) {
            const entry = viewer.consumer.tracks[trackIndex];
            if (!entry) return send(404, 'Not Found', request);
            if (viewer.consumer.tracks.some((other) => other.udp)) {
              return refuseTransport(request, 'this session already plays over UDP; one session uses one transport');
            }
            entry.channel = channel;
          } else {
            return send(455, 'Method Not Valid in This State', request);
          }
          return send(200, 'OK', request, { Transport: `RTP/AVP/TCP;unicast;interleaved=${channel}-${transport.rtcpChannel}`, Session: `${session};timeout=60` });
        }
        case 'PLAY':
          if (!viewer) return send(455, 'Method Not Valid in This State', request);
          send(200, 'OK', request, { Session: session, Range: 'npt=0.000-' });
          viewer.consumer.play();
          return;
        case 'RECORD':
          if (!publisher) return send(455, 'Method Not Valid in This State', request);
          return send(200, 'OK', request, { Session: session });
        case 'PAUSE':
          return send(200, 'OK', request, { Session: session });
        case 'TEARDOWN':
          releaseViewer();
          send(200, 'OK', request, { Session: session });
          socket.end();
          return;
        default:
          return send(405, 'Method Not Allowed', request, { Allow: PUBLIC_METHODS });
      }
    };

    // Requests are handled one at a time, in order, as RTSP clients expect.
    let queue: Promise<void> = Promise.resolve();
    socket.on('data', (data: Buffer) => {
      let chunks;
      try {
        chunks = parser.push(data);
      } catch (error) {
        if (error instanceof RtspProtocolError) {
          socket.end(formatResponse(400, 'Bad Request', { 'X-Error': error.message }));
          return;
        }
        throw error;
      }
      for (const chunk of chunks) {
        if (chunk.type === 'frame') {
          if (!publisher) continue;
          const index = publisher.channels.get(chunk.channel);
          if (index === undefined) continue; // RTCP or an unknown channel
          try {
            publisher.connection.deliver(index, parseRtpPacket(chunk.payload), chunk.payload.length);
          } catch {
            /* a malformed RTP packet is dropped; the stream goes on */
          }
        } else if (chunk.type === 'request') {
          queue = queue.then(() => handle(chunk)).catch((error: Error) => {
            logger.error('rtsp request failed', { method: chunk.method, error: error.message });
            send(500, 'Internal Server Error', chunk);
          });
        }
      }
    });
  });

  const port = await listen(server, options.port, options.host);
  const untrackServer = tasks.add('server', `rtsp ${options.host}:${port}`);
  logger.info('RTSP listening', { host: options.host, port });

  return {
    port,
    server,
    expectPublish: (path, timeoutMs) =>
      new Promise<ProducerConnection>((resolve, reject) => {
        const timer = setTimeout(() => {
          expected.delete(path);
          reject(new Error(`no publish within ${timeoutMs / 1000} s`));
        }, timeoutMs);
        expected.set(path, (connection) => {
          clearTimeout(timer);
          resolve(connection);
        });
      }),
    close: () =>
      new Promise<void>((resolve) => {
        untrackServer();
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      }),
  };
}

/**
 * Checks a request's credentials: Basic, or Digest (RFC 2617) with a nonce this server issued
 * and not yet expired, for this very request-URI (a header captured on one request opens no
 * other stream). `stale` tells a client with the right password to answer a new challenge.
 */
function authorize(
  request: RtspMessage & { type: 'request' },
  account: { username: string; password: string; realm: string },
  nonceState: (nonce: string) => NonceState,
): { ok: true; nonce?: string } | { ok: false; stale?: boolean } {
  const { username, password, realm } = account;
  const header = request.headers.get('authorization') ?? '';
  const basic = /^Basic\s+(.+)$/i.exec(header);
  if (basic?.[1]) return safeEqual(Buffer.from(basic[1], 'base64').toString('utf8'), `${username}:${password}`) ? { ok: true } : { ok: false };
  const { scheme, params } = parseChallenge(header);
  if (scheme !== 'digest' || params.username !== username || params.realm !== realm || !params.nonce || !params.uri) return { ok: false };
  if (!sameRequestUri(params.uri, request.uri)) return { ok: false };
  const expected = digestResponse({ username, password, realm, nonce: params.nonce, method: request.method, uri: params.uri, qop: params.qop, nc: params.nc, cnonce: params.cnonce });
  if (!safeEqual(params.response ?? '', expected)) return { ok: false };
  const state = nonceState(params.nonce);
  if (state === 'fresh') return { ok: true, nonce: params.nonce };
  return { ok: false, stale: state === 'expired' };
}

/** The Digest `uri` names the request's URI: as sent, or its path and query (some players send only that). */
function sameRequestUri(digestUri: string, requestUri: string): boolean {
  if (digestUri === requestUri) return true;
  try {
    const request = new URL(requestUri);
    return digestUri === `${request.pathname}${request.search}`;
  } catch {
    return false;
  }
}
