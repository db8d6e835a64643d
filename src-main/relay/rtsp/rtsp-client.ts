import { describeMedia, type Media } from '../core/media';
import type { ConnectionInfo, DialContext, ProducerConnection } from '../core/producer';
import { parseRtpPacket, serializeRtpPacket, type RtpPacket } from '../core/rtp-packet';
import { RtspConnection, type RtspResponse } from './rtsp-connection';
import { controlUrl, parseSdp } from './sdp';

const NO_DATA_TIMEOUT_MS = 10_000;
const KEEPALIVE_MS = 20_000;

/** ONVIF's option tag for two-way audio: the camera adds its speaker to the SDP as `a=sendonly`. */
const BACKCHANNEL_TAG = 'www.onvif.org/ver20/backchannel';

/** `rtsp://cam/path#backchannel=0` → the URL to dial and whether to ask for the backchannel. */
export function parseRtspSource(source: string): { url: string; backchannel: boolean } {
  const hash = source.indexOf('#');
  if (hash < 0) return { url: source, backchannel: true };
  const params = new URLSearchParams(source.slice(hash + 1).replaceAll('#', '&'));
  return { url: source.slice(0, hash), backchannel: params.get('backchannel') !== '0' };
}

/**
 * Pulls a camera over RTSP (or RTSPS): DESCRIBE (asking for the ONVIF backchannel, and again
 * without it if the camera refuses), SETUP each media with TCP interleaving, PLAY, then
 * keep-alives and a no-data watchdog. Basic and Digest auth from the URL's credentials. A
 * backchannel media takes packets through `send`.
 */
export async function dialRtsp(source: string, context: DialContext): Promise<ProducerConnection> {
  const parsed = parseRtspSource(source);
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
  const onAbort = () => connection.finish();
  context.signal.addEventListener('abort', onAbort, { once: true });

  let resolveClosed!: (error?: Error) => void;
  const closed = new Promise<Error | undefined>((resolve) => (resolveClosed = resolve));
  let asked = false;
  connection.onClose((error) => {
    clearInterval(timers.watchdog);
    context.signal.removeEventListener('abort', onAbort);
    resolveClosed(asked ? undefined : error);
  });
  // Set once playing starts; the connection may close before that (a failed DESCRIBE).
  const timers: { watchdog?: NodeJS.Timeout } = {};

  const base = connection.base;
  let medias: Media[];
  let sdp: string;
  const channels = new Map<number, number>();
  const channelOfMedia = new Map<number, number>();
  try {
    sdp = described.body.toString('utf8');
    medias = parseSdp(sdp, 'recvonly', { backchannel: parsed.backchannel });
    const contentBase = described.headers.get('content-base') ?? described.headers.get('content-location') ?? base;
    for (const [index, media] of medias.entries()) {
      const channel = index * 2;
      const setup = await connection.request(
        'SETUP',
        controlUrl(contentBase, media.control, index),
        { Transport: `RTP/AVP/TCP;unicast;interleaved=${channel}-${channel + 1}`, ...(parsed.backchannel ? { Require: BACKCHANNEL_TAG } : {}) },
      );
      const granted = /interleaved=(\d+)/.exec(setup.headers.get('transport') ?? '');
      const grantedChannel = granted ? Number(granted[1]) : channel;
      channels.set(grantedChannel, index);
      channelOfMedia.set(index, grantedChannel);
    }
  } catch (error) {
    connection.finish(error as Error);
    throw error;
  }

  let sink: ((index: number, packet: RtpPacket) => void) | undefined;
  connection.onFrame((channel, payload) => {
    const index = channels.get(channel);
    if (index === undefined || !sink) return;
    try {
      sink(index, parseRtpPacket(payload));
    } catch {
      /* a malformed RTP packet is dropped */
    }
  });

  let playing = false;
  let lastKeepalive = Date.now();
  return {
    medias,
    closed,
    start(next) {
      sink = next;
      if (playing) return;
      playing = true;
      connection.lastDataAt = Date.now();
      connection.request('PLAY', base, { Range: 'npt=0.000-', ...(parsed.backchannel ? { Require: BACKCHANNEL_TAG } : {}) }).catch((error: Error) => connection.finish(error));
      timers.watchdog = setInterval(() => {
        if (Date.now() - connection.lastDataAt > NO_DATA_TIMEOUT_MS) return connection.finish(new Error('rtsp: no data from the camera for 10 s'));
        // Cameras drop a session whose client never speaks; one request in flight at a time.
        if (Date.now() - lastKeepalive > KEEPALIVE_MS && !connection.busy) {
          lastKeepalive = Date.now();
          void connection.request('GET_PARAMETER', base).catch(() => undefined);
        }
      }, 1_000);
      timers.watchdog.unref();
    },
    close: () => {
      asked = true;
      connection.finish();
    },
    send(mediaIndex, packet) {
      const channel = channelOfMedia.get(mediaIndex);
      if (channel === undefined || medias[mediaIndex]?.direction !== 'sendonly' || !playing) return false;
      return connection.sendFrame(channel, serializeRtpPacket(packet));
    },
    info(): ConnectionInfo {
      return {
        format_name: 'rtsp',
        protocol: connection.secure ? 'rtsps+tcp' : 'rtsp+tcp',
        remote_addr: connection.remote,
        sdp,
        medias: medias.map(describeMedia),
        bytes_recv: connection.bytesReceived,
      };
    },
  };
}

async function describe(connection: RtspConnection, backchannel: boolean): Promise<RtspResponse> {
  await connection.request('OPTIONS', connection.base);
  return connection.request('DESCRIBE', connection.base, { Accept: 'application/sdp', ...(backchannel ? { Require: BACKCHANNEL_TAG } : {}) });
}
