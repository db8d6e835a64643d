import type { Logger } from '@main/platform/logger';
import { redactUrlCredentials } from '@main/platform/logger';
import { describeMedia, type Media } from '../../core/media';
import type { ConnectionInfo, DialContext, ProducerConnection, ProducerDialer } from '../../core/producer';
import { parseRtpPacket, serializeRtpPacket, type RtpPacket } from '../../core/rtp-packet';
import type { TaskRegistry } from '../../core/task-registry';
import { RtspClientUdp } from './rtsp-client-udp';
import { formatClientUdpTransport, isUnsupportedTransport, parseServerUdpTransport, UdpNotGrantedError } from './rtsp-client-udp-transport';
import { RtspConnection, RtspResponseError, type RtspResponse } from './rtsp-connection';
import { controlUrl, parseSdp } from './sdp';

const NO_DATA_TIMEOUT_MS = 10_000;
const KEEPALIVE_MS = 20_000;
/** How long a close waits for the answer to TEARDOWN before it hangs up anyway. */
const TEARDOWN_WAIT_MS = 1_000;

/** ONVIF's option tag for two-way audio: the camera adds its speaker to the SDP as `a=sendonly`. */
const BACKCHANNEL_TAG = 'www.onvif.org/ver20/backchannel';

type RtspTransport = 'tcp' | 'udp';

export interface RtspSource {
  url: string;
  backchannel: boolean;
  transport: RtspTransport;
}

/**
 * `rtsp://cam/path#backchannel=0#transport=udp` → the URL to dial, whether to ask for the
 * backchannel, and how RTP should come (interleaved on the RTSP connection unless `udp`).
 */
export function parseRtspSource(source: string): RtspSource {
  const hash = source.indexOf('#');
  if (hash < 0) return { url: source, backchannel: true, transport: 'tcp' };
  const params = new URLSearchParams(source.slice(hash + 1).replaceAll('#', '&'));
  const transport = (params.get('transport') ?? 'tcp').toLowerCase();
  if (transport !== 'tcp' && transport !== 'udp')
    throw new Error(`rtsp: #transport=${transport} is not known; use #transport=udp or #transport=tcp`);
  return { url: source.slice(0, hash), backchannel: params.get('backchannel') !== '0', transport };
}

export interface RtspClientDeps {
  /** Where UDP sockets and timers show up (`GET /api/stack`). */
  tasks?: TaskRegistry;
  logger?: Logger;
  /** Sources whose server refused UDP: dials after the first go straight to TCP, logged once. */
  udpRefused?: Set<string>;
  /**
   * Cameras that announced a backchannel and then refused to set it up or to play with it: later
   * dials no longer ask for it, so the picture is not lost to a speaker the camera cannot serve.
   */
  backchannelRefused?: Set<string>;
  /** Receiver reports over UDP, 5 s unless told. */
  udpReportIntervalMs?: number;
}

/** The `rtsp`/`rtsps` scheme's dialer: one per relay, so a camera that refuses UDP is told about once. */
export function createRtspDialer(deps: Omit<RtspClientDeps, 'udpRefused' | 'backchannelRefused'> = {}): ProducerDialer {
  const udpRefused = new Set<string>();
  const backchannelRefused = new Set<string>();
  return (source, context) => dialRtsp(source, context, { ...deps, udpRefused, backchannelRefused });
}

/**
 * Pulls a camera over RTSP (or RTSPS): DESCRIBE (asking for the ONVIF backchannel, and again
 * without it if the camera refuses), SETUP each media with TCP interleaving (or RTP over UDP
 * with `#transport=udp`, falling back to TCP on a fresh connection when the camera refuses
 * that), PLAY, then keep-alives and a no-data watchdog. Basic and Digest auth from the URL's
 * credentials. A backchannel media takes packets through `send`.
 */
export async function dialRtsp(source: string, context: DialContext, deps: RtspClientDeps = {}): Promise<ProducerConnection> {
  const asked = parseRtspSource(source);
  const parsed = asked.backchannel && deps.backchannelRefused?.has(asked.url) ? { ...asked, backchannel: false } : asked;
  if (parsed.transport === 'udp' && !deps.udpRefused?.has(parsed.url)) {
    try {
      return await dialWith(parsed, 'udp', context, deps);
    } catch (error) {
      if (!isUnsupportedTransport(error)) throw error;
      deps.udpRefused?.add(parsed.url);
      deps.logger?.warn('rtsp: the camera does not serve RTP over UDP; pulling it over TCP', {
        source: redactUrlCredentials(parsed.url),
        error: (error as Error).message,
      });
    }
  }
  return dialWith(parsed, 'tcp', context, deps);
}

/** A camera refused a step of a pull that included its backchannel (SETUP or PLAY). */
class BackchannelStepRefused extends Error {
  override name = 'BackchannelStepRefused';
}

/**
 * Remembers that this camera cannot serve its backchannel and dials it again without asking for
 * one: some cameras list a speaker when asked and then answer 551 or 4xx to its SETUP or to PLAY.
 */
async function dialWith(
  parsed: RtspSource,
  transport: RtspTransport,
  context: DialContext,
  deps: RtspClientDeps,
): Promise<ProducerConnection> {
  try {
    return await dialOnce(parsed, transport, context, deps);
  } catch (error) {
    if (!(error instanceof BackchannelStepRefused)) throw error;
    deps.backchannelRefused?.add(parsed.url);
    deps.logger?.warn('rtsp: the camera refused its two-way audio; pulling it without', {
      source: redactUrlCredentials(parsed.url),
      error: error.message,
    });
    return dialOnce({ ...parsed, backchannel: false }, transport, context, deps);
  }
}

async function dialOnce(
  parsed: RtspSource,
  transport: RtspTransport,
  context: DialContext,
  deps: RtspClientDeps,
): Promise<ProducerConnection> {
  let connection = await RtspConnection.open(parsed.url);
  let described: RtspResponse;
  try {
    described = await describe(connection, parsed.backchannel);
  } catch (error) {
    if (!parsed.backchannel) throw error;
    // Cameras without two-way audio may refuse the Require header (551) or hang up on it.
    connection.finish();
    connection = await RtspConnection.open(parsed.url);
    described = await describe(connection, false).catch((retryError: Error) => {
      connection.finish(retryError);
      throw retryError;
    });
  }
  let udp: RtspClientUdp | undefined;
  let playing = false;
  let asked = false;
  const base = connection.base;
  /** Ends the pull; over UDP the camera is told first, as its session may outlive the connection. */
  const shutdown = () => {
    if (asked) return; // a stop both aborts and closes: the TEARDOWN in flight is not cut short
    asked = true;
    if (!udp) return connection.finish();
    udp.close();
    if (!playing || connection.busy) return connection.finish();
    const timer = setTimeout(() => connection.finish(), TEARDOWN_WAIT_MS);
    timer.unref();
    void connection
      .request('TEARDOWN', base)
      .catch(() => undefined)
      .finally(() => {
        clearTimeout(timer);
        connection.finish();
      });
  };
  context.signal.addEventListener('abort', shutdown, { once: true });

  let resolveClosed!: (error?: Error) => void;
  const closed = new Promise<Error | undefined>((resolve) => (resolveClosed = resolve));
  connection.onClose((error) => {
    clearInterval(timers.watchdog);
    udp?.close();
    context.signal.removeEventListener('abort', shutdown);
    resolveClosed(asked ? undefined : error);
  });
  // Set once playing starts; the connection may close before that (a failed DESCRIBE).
  const timers: { watchdog?: NodeJS.Timeout } = {};

  let medias: Media[];
  let sdp: string;
  /** Media index by interleaved channel (0-255): looked up for every packet, so an array, not a Map. */
  const channels: Array<number | undefined> = [];
  const channelOfMedia = new Map<number, number>();
  try {
    sdp = described.body.toString('utf8');
    medias = parseSdp(sdp, 'recvonly', { backchannel: parsed.backchannel });
    const contentBase = described.headers.get('content-base') ?? described.headers.get('content-location') ?? base;
    if (transport === 'udp') {
      udp = await RtspClientUdp.open(parsed.url, {
        tasks: deps.tasks,
        logger: deps.logger,
        reportIntervalMs: deps.udpReportIntervalMs,
        onDatagram: () => (connection.lastDataAt = Date.now()),
      });
    }
    for (const [index, media] of medias.entries()) {
      const uri = controlUrl(contentBase, media.control, index);
      if (udp) {
        const codec = media.codecs[0];
        const ports = await udp.addTrack(index, codec?.clockRate ?? 0, codec?.payloadType ?? 0);
        const setup = await connection.request('SETUP', uri, { Transport: formatClientUdpTransport(ports) });
        const granted = parseServerUdpTransport(setup.headers.get('transport') ?? '');
        if (!granted)
          throw new UdpNotGrantedError(`rtsp: SETUP over UDP was answered with Transport: ${setup.headers.get('transport') ?? '(none)'}`);
        udp.setServerPorts(index, granted.server);
        continue;
      }
      const channel = index * 2;
      const setup = await connection.request('SETUP', uri, { Transport: `RTP/AVP/TCP;unicast;interleaved=${channel}-${channel + 1}` });
      const granted = /interleaved=(\d+)/.exec(setup.headers.get('transport') ?? '');
      const grantedChannel = granted ? Number(granted[1]) : channel;
      channels[grantedChannel] = index;
      channelOfMedia.set(index, grantedChannel);
    }
  } catch (error) {
    udp?.close(); // the connection may have closed before the sockets were bound
    connection.finish(error as Error);
    // A refused login is not the backchannel's fault: it stays a 401 for the viewer.
    if (hasBackchannel(medias!) && error instanceof RtspResponseError && error.status !== 401)
      throw new BackchannelStepRefused(error.message);
    throw error;
  }

  const packets: PacketTarget = {};
  connection.onFrame(packetsOfFrames(channels, packets));

  const noDataMessage = udp
    ? 'rtsp: no RTP over UDP from the camera for 10 s (is UDP blocked on the way? without #transport=udp it comes over TCP)'
    : 'rtsp: no data from the camera for 10 s';
  let lastKeepalive = Date.now();
  return {
    medias,
    closed,
    start(next) {
      packets.sink = next;
      udp?.start((index, packet) => packets.sink?.(index, packet));
      if (playing) return;
      playing = true;
      connection.lastDataAt = Date.now();
      // No Range and no Require, as go2rtc sends it: GStreamer's ONVIF server refuses PLAY with a Range (503).
      connection.request('PLAY', base).catch((error: Error) => {
        // The next dial leaves the speaker out (the source reconnects as after any failure).
        if (hasBackchannel(medias) && error instanceof RtspResponseError) deps.backchannelRefused?.add(parsed.url);
        connection.finish(error);
      });
      timers.watchdog = setInterval(() => {
        if (Date.now() - connection.lastDataAt > NO_DATA_TIMEOUT_MS) return connection.finish(new Error(noDataMessage));
        // Cameras drop a session whose client never speaks; one request in flight at a time.
        if (Date.now() - lastKeepalive > KEEPALIVE_MS && !connection.busy) {
          lastKeepalive = Date.now();
          void connection.request('GET_PARAMETER', base).catch(() => undefined);
        }
      }, 1_000);
      timers.watchdog.unref();
    },
    close: shutdown,
    send(mediaIndex, packet) {
      if (medias[mediaIndex]?.direction !== 'sendonly' || !playing) return false;
      if (udp) return udp.send(mediaIndex, packet);
      const channel = channelOfMedia.get(mediaIndex);
      if (channel === undefined) return false;
      return connection.sendFrame(channel, serializeRtpPacket(packet));
    },
    info(): ConnectionInfo {
      return {
        format_name: 'rtsp',
        protocol: `${connection.secure ? 'rtsps' : 'rtsp'}+${udp ? 'udp' : 'tcp'}`,
        remote_addr: connection.remote,
        sdp,
        medias: medias.map(describeMedia),
        bytes_recv: connection.bytesReceived + (udp?.bytesReceived ?? 0),
      };
    },
  };
}

/** Where a connection's RTP packets go once it plays (by media index). */
interface PacketTarget {
  sink?: (index: number, packet: RtpPacket) => void;
}

/** The interleaved frames' listener: each frame of a known channel parsed as RTP and handed to the target's sink. */
function packetsOfFrames(channels: ReadonlyArray<number | undefined>, target: PacketTarget) {
  // The frames of one read come one after another from the same bytes: their buffer is looked up once.
  let read: Buffer | undefined;
  let readBuffer: ArrayBufferLike | undefined;
  return (channel: number, bytes: Buffer, start: number, end: number): void => {
    const index = channels[channel];
    const sink = target.sink;
    if (index === undefined || !sink) return;
    if (bytes !== read) {
      read = bytes;
      readBuffer = bytes.buffer;
    }
    try {
      sink(index, parseRtpPacket(bytes, start, end, readBuffer));
    } catch {
      /* a malformed RTP packet is dropped */
    }
  };
}

const hasBackchannel = (medias: Media[] | undefined): boolean => !!medias?.some((media) => media.direction === 'sendonly');

/** OPTIONS, then DESCRIBE: the only request that asks for the backchannel (ONVIF Streaming 5.3). */
async function describe(connection: RtspConnection, backchannel: boolean): Promise<RtspResponse> {
  await connection.request('OPTIONS', connection.base);
  return connection.request('DESCRIBE', connection.base, {
    Accept: 'application/sdp',
    ...(backchannel ? { Require: BACKCHANNEL_TAG } : {}),
  });
}
