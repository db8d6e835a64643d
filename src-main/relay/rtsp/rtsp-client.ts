import { connect as connectTcp, type Socket } from 'node:net';
import { connect as connectTls } from 'node:tls';
import { describeMedia, type Media } from '../core/media';
import type { ConnectionInfo, DialContext, ProducerConnection } from '../core/producer';
import { parseRtpPacket, type RtpPacket } from '../core/rtp-packet';
import { authorizationFor } from './digest-auth';
import { RtspParser, type RtspMessage } from './rtsp-parser';
import { controlUrl, parseSdp } from './sdp';

const REQUEST_TIMEOUT_MS = 8_000;
const NO_DATA_TIMEOUT_MS = 10_000;
const KEEPALIVE_MS = 20_000;

type Response = RtspMessage & { type: 'response' };

/**
 * Pulls a camera over RTSP (or RTSPS): DESCRIBE, SETUP each media with TCP interleaving, PLAY,
 * then keep-alives. Basic and Digest auth from the URL's credentials.
 */
export async function dialRtsp(source: string, context: DialContext): Promise<ProducerConnection> {
  const url = new URL(source);
  const username = decodeURIComponent(url.username);
  const password = decodeURIComponent(url.password);
  url.username = '';
  url.password = '';
  const base = url.toString();
  const secure = url.protocol === 'rtsps:';
  const port = Number(url.port) || (secure ? 322 : 554);

  const socket: Socket = await new Promise((resolve, reject) => {
    const s = secure ? connectTls({ host: url.hostname, port, servername: url.hostname, rejectUnauthorized: false }) : connectTcp({ host: url.hostname, port });
    const timer = setTimeout(() => {
      s.destroy();
      reject(new Error(`rtsp: connect to ${url.host} timed out`));
    }, REQUEST_TIMEOUT_MS);
    s.once(secure ? 'secureConnect' : 'connect', () => {
      clearTimeout(timer);
      resolve(s);
    });
    s.once('error', (error) => {
      clearTimeout(timer);
      reject(new Error(`rtsp: ${error.message}`));
    });
  });
  socket.setNoDelay(true);
  const onAbort = () => socket.destroy();
  context.signal.addEventListener('abort', onAbort, { once: true });

  const parser = new RtspParser();
  let cseq = 0;
  let authorization: string | undefined;
  let challenge: string | undefined;
  let session: string | undefined;
  let pending: { resolve: (r: Response) => void; reject: (e: Error) => void } | undefined;
  let sink: ((index: number, packet: RtpPacket) => void) | undefined;
  const channels = new Map<number, number>();
  let bytes = 0;
  let lastData = Date.now();
  let resolveClosed!: (error?: Error) => void;
  const closed = new Promise<Error | undefined>((resolve) => (resolveClosed = resolve));
  let ended = false;
  // Set once playing starts; finish() may run before that (a failed DESCRIBE).
  const timers: { watchdog?: NodeJS.Timeout } = {};
  const finish = (error?: Error) => {
    if (ended) return;
    ended = true;
    clearInterval(timers.watchdog);
    context.signal.removeEventListener('abort', onAbort);
    pending?.reject(error ?? new Error('rtsp: connection closed'));
    socket.destroy();
    resolveClosed(error);
  };

  socket.on('data', (data: Buffer) => {
    lastData = Date.now();
    let chunks;
    try {
      chunks = parser.push(data);
    } catch (error) {
      finish(new Error(`rtsp: camera sent garbage: ${(error as Error).message}`));
      return;
    }
    for (const chunk of chunks) {
      if (chunk.type === 'frame') {
        const index = channels.get(chunk.channel);
        if (index === undefined || !sink) continue;
        bytes += chunk.payload.length;
        try {
          sink(index, parseRtpPacket(chunk.payload));
        } catch {
          /* a malformed RTP packet is dropped */
        }
      } else if (chunk.type === 'response') {
        const waiter = pending;
        pending = undefined;
        waiter?.resolve(chunk);
      }
    }
  });
  socket.on('close', () => finish(ended ? undefined : new Error('rtsp: camera closed the connection')));
  socket.on('error', (error) => finish(new Error(`rtsp: ${error.message}`)));

  const request = async (method: string, uri: string, headers: Record<string, string> = {}): Promise<Response> => {
    for (let attempt = 0; attempt < 2; attempt++) {
      const lines = [`${method} ${uri} RTSP/1.0`, `CSeq: ${++cseq}`, 'User-Agent: Relay Console'];
      if (challenge && (username || password)) authorization = authorizationFor(challenge, method, uri, username, password);
      if (authorization) lines.push(`Authorization: ${authorization}`);
      if (session) lines.push(`Session: ${session}`);
      for (const [key, value] of Object.entries(headers)) lines.push(`${key}: ${value}`);
      const response = await new Promise<Response>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`rtsp: ${method} got no answer`)), REQUEST_TIMEOUT_MS);
        pending = {
          resolve: (r) => {
            clearTimeout(timer);
            resolve(r);
          },
          reject: (e) => {
            clearTimeout(timer);
            reject(e);
          },
        };
        socket.write(lines.join('\r\n') + '\r\n\r\n');
      });
      if (response.status === 401 && attempt === 0 && response.headers.get('www-authenticate') && (username || password)) {
        challenge = response.headers.get('www-authenticate');
        continue;
      }
      if (response.status === 401) throw new Error(`rtsp: ${method} unauthorized: check the username and password in the source URL`);
      if (response.status >= 300) throw new Error(`rtsp: ${method} answered ${response.status} ${response.reason}`);
      return response;
    }
    throw new Error(`rtsp: ${method} unauthorized`);
  };

  let medias: Media[];
  let sdp: string;
  try {
    await request('OPTIONS', base);
    const described = await request('DESCRIBE', base, { Accept: 'application/sdp' });
    sdp = described.body.toString('utf8');
    medias = parseSdp(sdp, 'recvonly');
    const contentBase = described.headers.get('content-base') ?? described.headers.get('content-location') ?? base;
    for (const [index, media] of medias.entries()) {
      const channel = index * 2;
      const setup = await request('SETUP', controlUrl(contentBase, media.control, index), { Transport: `RTP/AVP/TCP;unicast;interleaved=${channel}-${channel + 1}` });
      session ??= setup.headers.get('session')?.split(';')[0];
      const granted = /interleaved=(\d+)/.exec(setup.headers.get('transport') ?? '');
      channels.set(granted ? Number(granted[1]) : channel, index);
    }
  } catch (error) {
    finish(error as Error);
    throw error;
  }

  let playing = false;
  let lastKeepalive = Date.now();
  timers.watchdog = setInterval(() => {
    if (!playing) return;
    if (Date.now() - lastData > NO_DATA_TIMEOUT_MS) return finish(new Error('rtsp: no data from the camera for 10 s'));
    // Cameras drop a session whose client never speaks; one request in flight at a time.
    if (Date.now() - lastKeepalive > KEEPALIVE_MS && !pending) {
      lastKeepalive = Date.now();
      void request('GET_PARAMETER', base).catch(() => undefined);
    }
  }, 1_000);
  timers.watchdog.unref();

  return {
    medias,
    closed,
    start(next) {
      sink = next;
      if (playing) return;
      playing = true;
      lastData = Date.now();
      request('PLAY', base, { Range: 'npt=0.000-' }).catch((error: Error) => finish(error));
    },
    close: () => finish(),
    info(): ConnectionInfo {
      return {
        format_name: 'rtsp',
        protocol: secure ? 'rtsps+tcp' : 'rtsp+tcp',
        remote_addr: `${url.hostname}:${port}`,
        sdp,
        medias: medias.map(describeMedia),
        bytes_recv: bytes,
      };
    },
  };
}
