import { connect as connectTcp, type Socket } from 'node:net';
import { authorizationFor } from './digest-auth';
import { RtspParser, interleavedFrame, type RtspMessage, type RtspReadSink } from './rtsp-parser';
import { nodeTls } from '../../../platform/cjs-builtins';

type FrameListener = (channel: number, bytes: Buffer, start: number, end: number) => void;

const REQUEST_TIMEOUT_MS = 8_000;
/** Reads land one after another in slabs of this size (about a second of a 2 Mbit/s camera). */
const SLAB_BYTES = 256 * 1024;
/** A read is never offered less room than this: a slab with less left is replaced. */
const MIN_READ_BYTES = 16 * 1024;

/** Where the bytes of a plain TCP connection go, once its RtspConnection exists. */
interface ReadSink {
  onread: { buffer(): Buffer; callback(bytes: number, buffer: Buffer): boolean };
  /** The read's bytes: `data[0, length)`. */
  deliver(data: Buffer, length: number): void;
}

/**
 * A camera's bytes read by the kernel straight into a slab of the connection's, at the slab's
 * first free byte (Node asks `buffer()` where each next read goes), and handed to the parser as
 * a view of what was read: no copy between the socket and the parser, no 'data' event through
 * the stream machinery, no buffer per read. The packets of the GOP cache are views of these
 * reads, so a full slab is left to them and a new one taken; a buffer of its own per read
 * (Node's pool is 8 KiB slabs, and reads of 4 KiB or more get their own) was hundreds of
 * short-lived buffers a second for the collector to track.
 */
function readSink(): ReadSink {
  let slab = Buffer.allocUnsafeSlow(SLAB_BYTES);
  let used = 0;
  const sink: ReadSink = {
    onread: {
      buffer: () => {
        if (slab.length - used < MIN_READ_BYTES) {
          slab = Buffer.allocUnsafeSlow(SLAB_BYTES);
          used = 0;
        }
        return slab.subarray(used);
      },
      // `buffer` is the view `buffer()` gave for this read: its first `bytes` are new (handed on
      // as they lie, not as a view of their own: one buffer object fewer per read).
      callback: (bytes, buffer) => {
        used += bytes;
        sink.deliver(buffer, bytes);
        return true;
      },
    },
    deliver: () => undefined,
  };
  return sink;
}

export type RtspResponse = RtspMessage & { type: 'response' };

/** The camera answered a request with an error status (not a lost connection or a timeout). */
export class RtspResponseError extends Error {
  override name = 'RtspResponseError';
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

/**
 * The client side of one RTSP connection (to a camera, or to a server we publish to): requests
 * one at a time with CSeq, Session and Basic/Digest auth from the URL, plus interleaved frames.
 */
export class RtspConnection {
  private readonly parser = new RtspParser();
  private cseq = 0;
  private challenge?: string;
  private pending?: { resolve: (r: RtspResponse) => void; reject: (e: Error) => void };
  private frameListener?: FrameListener;
  private closeListeners: Array<(error?: Error) => void> = [];
  private ended = false;
  session?: string;
  bytesReceived = 0;
  bytesSent = 0;
  lastDataAt = Date.now();

  private constructor(
    private readonly socket: Socket,
    /** The URL without credentials: safe to show and to send. */
    readonly base: string,
    readonly remote: string,
    readonly secure: boolean,
    private readonly username: string,
    private readonly password: string,
    reads?: ReadSink,
  ) {
    socket.setNoDelay(true);
    if (reads) reads.deliver = (data, length) => this.onData(data, length);
    else socket.on('data', (data: Buffer) => this.onData(data));
    socket.on('close', () => this.finish(new Error('rtsp: the other side closed the connection')));
    socket.on('error', (error) => this.finish(new Error(`rtsp: ${error.message}`)));
  }

  static async open(source: string): Promise<RtspConnection> {
    const url = new URL(source);
    const username = decodeURIComponent(url.username);
    const password = decodeURIComponent(url.password);
    url.username = '';
    url.password = '';
    const secure = url.protocol === 'rtsps:';
    const port = Number(url.port) || (secure ? 322 : 554);
    const reads = secure ? undefined : readSink();
    const socket: Socket = await new Promise((resolve, reject) => {
      const s = reads
        ? connectTcp({ host: url.hostname, port, onread: reads.onread })
        : nodeTls.connect({ host: url.hostname, port, servername: url.hostname, rejectUnauthorized: false });
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
        reject(new Error(`rtsp: ${error.message}`, { cause: error }));
      });
    });
    return new RtspConnection(socket, url.toString(), `${url.hostname}:${port}`, secure, username, password, reads);
  }

  private onData(data: Buffer, length = data.length): void {
    this.lastDataAt = Date.now();
    try {
      this.parser.read(data, this.reads, length);
    } catch (error) {
      this.finish(new Error(`rtsp: the other side sent garbage: ${(error as Error).message}`));
    }
  }

  private readonly reads: RtspReadSink = {
    frame: (channel, bytes, start, end) => {
      this.bytesReceived += end - start;
      this.frameListener?.(channel, bytes, start, end);
    },
    message: (message) => {
      if (message.type !== 'response') return;
      const waiter = this.pending;
      this.pending = undefined;
      waiter?.resolve(message);
    },
  };

  get busy(): boolean {
    return this.pending !== undefined;
  }

  /** Sends a request and waits for its answer; a 401 with a challenge is answered once with the URL's credentials. */
  async request(method: string, uri: string, headers: Record<string, string> = {}, body = ''): Promise<RtspResponse> {
    for (let attempt = 0; attempt < 2; attempt++) {
      const lines = [`${method} ${uri} RTSP/1.0`, `CSeq: ${++this.cseq}`, 'User-Agent: Relay Console'];
      if (this.challenge) lines.push(`Authorization: ${authorizationFor(this.challenge, method, uri, this.username, this.password)}`);
      if (this.session) lines.push(`Session: ${this.session}`);
      for (const [key, value] of Object.entries(headers)) lines.push(`${key}: ${value}`);
      if (body) lines.push(`Content-Length: ${Buffer.byteLength(body)}`);
      const response = await new Promise<RtspResponse>((resolve, reject) => {
        if (this.ended) return reject(new Error('rtsp: connection closed'));
        const timer = setTimeout(() => reject(new Error(`rtsp: ${method} got no answer`)), REQUEST_TIMEOUT_MS);
        this.pending = {
          resolve: (r) => {
            clearTimeout(timer);
            resolve(r);
          },
          reject: (e) => {
            clearTimeout(timer);
            reject(e);
          },
        };
        this.socket.write(lines.join('\r\n') + '\r\n\r\n' + body);
      });
      const challenge = response.headers.get('www-authenticate');
      if (response.status === 401 && attempt === 0 && challenge && (this.username || this.password)) {
        this.challenge = challenge;
        continue;
      }
      if (response.status === 401)
        throw new RtspResponseError(`rtsp: ${method} unauthorized: check the username and password in the URL`, 401);
      if (response.status >= 300)
        throw new RtspResponseError(`rtsp: ${method} answered ${response.status} ${response.reason}`, response.status);
      this.session ??= response.headers.get('session')?.split(';')[0];
      return response;
    }
    throw new RtspResponseError(`rtsp: ${method} unauthorized`, 401);
  }

  /** Interleaved frames as they are read: the payload is `bytes[start, end)`. */
  onFrame(listener: FrameListener): void {
    this.frameListener = listener;
  }

  /** Writes one interleaved frame; false when the socket's buffer is full (wait for `onDrain`). */
  sendFrame(channel: number, payload: Uint8Array): boolean {
    const frame = interleavedFrame(channel, payload);
    this.bytesSent += frame.length;
    return this.socket.write(frame);
  }

  onDrain(callback: () => void): void {
    this.socket.once('drain', callback);
  }

  onClose(listener: (error?: Error) => void): void {
    if (this.ended) listener();
    else this.closeListeners.push(listener);
  }

  /** Ends the connection; listeners get `error` (undefined for a close we asked for). */
  finish(error?: Error): void {
    if (this.ended) return;
    this.ended = true;
    this.pending?.reject(error ?? new Error('rtsp: connection closed'));
    this.pending = undefined;
    this.socket.destroy();
    for (const listener of this.closeListeners.splice(0)) listener(error);
  }
}
