import { describeMedia, type Media } from '../core/media';
import type { ConnectionInfo, DialContext, ProducerConnection } from '../core/producer';
import { parseRtpPacket, type RtpPacket } from '../core/rtp-packet';
import { RtspConnection } from './rtsp-connection';
import { controlUrl, parseSdp } from './sdp';

const NO_DATA_TIMEOUT_MS = 10_000;
const KEEPALIVE_MS = 20_000;

/**
 * Pulls a camera over RTSP (or RTSPS): DESCRIBE, SETUP each media with TCP interleaving, PLAY,
 * then keep-alives and a no-data watchdog. Basic and Digest auth from the URL's credentials.
 */
export async function dialRtsp(source: string, context: DialContext): Promise<ProducerConnection> {
  const connection = await RtspConnection.open(source);
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
  try {
    await connection.request('OPTIONS', base);
    const described = await connection.request('DESCRIBE', base, { Accept: 'application/sdp' });
    sdp = described.body.toString('utf8');
    medias = parseSdp(sdp, 'recvonly');
    const contentBase = described.headers.get('content-base') ?? described.headers.get('content-location') ?? base;
    for (const [index, media] of medias.entries()) {
      const channel = index * 2;
      const setup = await connection.request('SETUP', controlUrl(contentBase, media.control, index), {
        Transport: `RTP/AVP/TCP;unicast;interleaved=${channel}-${channel + 1}`,
      });
      const granted = /interleaved=(\d+)/.exec(setup.headers.get('transport') ?? '');
      channels.set(granted ? Number(granted[1]) : channel, index);
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
      connection.request('PLAY', base, { Range: 'npt=0.000-' }).catch((error: Error) => connection.finish(error));
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
