/** One RTSP request or response, or one interleaved `$` frame, as read off a TCP connection. */
export type RtspMessage =
  | { type: 'request'; method: string; uri: string; headers: Map<string, string>; body: Buffer }
  | { type: 'response'; status: number; reason: string; headers: Map<string, string>; body: Buffer };

export type RtspChunk = RtspMessage | { type: 'frame'; channel: number; payload: Buffer };

export class RtspProtocolError extends Error {
  override name = 'RtspProtocolError';
}

const MAX_HEADER_BYTES = 64 * 1024;
const MAX_BODY_BYTES = 1024 * 1024;

/** Where `read` hands what it finds, in the order it comes. */
export interface RtspReadSink {
  /** An interleaved frame: its payload is `bytes[start, end)` (no view made for it). */
  frame(channel: number, bytes: Buffer, start: number, end: number): void;
  message(message: RtspMessage): void;
}

/**
 * Splits a TCP byte stream into RTSP messages and interleaved frames. Bytes may arrive in any
 * chunking; garbage throws RtspProtocolError (the connection is then answered 400 and closed).
 */
export class RtspParser {
  /** Bytes of a message or frame that the reads so far cut short. */
  private rest: Buffer = Buffer.alloc(0);

  /** The frames and messages of one read, in order (tests, small tools). */
  push(data: Buffer): RtspChunk[] {
    const out: RtspChunk[] = [];
    this.read(data, {
      frame: (channel, bytes, start, end) => out.push({ type: 'frame', channel, payload: bytes.subarray(start, end) }),
      message: (message) => out.push(message),
    });
    return out;
  }

  /**
   * Reads one read's bytes: each whole frame and message goes to the sink where it lies in the
   * read, walked by an offset. A camera's read holds dozens of frames, and a view of the rest
   * of the read after each, plus an object and an array slot per frame, were most of what the
   * relay allocated per RTP packet. Only `data[0, length)` is read: a connection hands the slab
   * its reads land in, up to what the read brought, without a view of its own per read.
   */
  read(data: Buffer, sink: RtspReadSink, length = data.length): void {
    let bytes = data;
    let limit = length;
    const rest = this.rest;
    if (rest.length > 0) {
      if (length < data.length) data = data.subarray(0, length);
      if (rest[0] === 0x24) {
        // An interleaved frame cut by the read: join only the bytes it still needs, and parse
        // the rest of the read where it lies. Joining the whole read to the leftover copied
        // nearly every byte a camera sends once more, in a fresh allocation each read.
        const header = rest.length >= 4 ? rest : Buffer.concat([rest, data.subarray(0, 4 - rest.length)]);
        if (header.length < 4) {
          this.rest = header;
          return;
        }
        const need = 4 + header.readUInt16BE(2) - rest.length;
        if (need > data.length) {
          this.rest = Buffer.concat([rest, data]);
          return;
        }
        const whole = Buffer.concat([rest, data.subarray(0, need)]);
        this.rest = EMPTY;
        sink.frame(whole[1]!, whole, 4, whole.length);
        bytes = data.subarray(need);
      } else bytes = Buffer.concat([rest, data]);
      limit = bytes.length;
    }
    let at = 0;
    while (at < limit) {
      if (bytes[at] === 0x24) {
        if (at + 4 > limit) break;
        const end = at + 4 + ((bytes[at + 2]! << 8) | bytes[at + 3]!);
        if (end > limit) break;
        sink.frame(bytes[at + 1]!, bytes, at + 4, end);
        at = end;
        continue;
      }
      // A request or response (rare while media flows) is looked for in the bytes read alone.
      if (limit < bytes.length) bytes = bytes.subarray(0, limit);
      const message = this.message(bytes, at);
      if (!message) break;
      at = message.end;
      sink.message(message.message);
    }
    this.rest = at === limit ? EMPTY : bytes.subarray(at, limit);
  }

  /** The request or response starting at `at`, once all of it is there. */
  private message(buf: Buffer, at: number): { message: RtspMessage; end: number } | undefined {
    const headerEnd = buf.indexOf('\r\n\r\n', at);
    if (headerEnd < 0) {
      if (buf.length - at > MAX_HEADER_BYTES) throw new RtspProtocolError('RTSP header too long');
      if (!looksLikeRtsp(buf.subarray(at))) throw new RtspProtocolError('not an RTSP message');
      return undefined;
    }
    const lines = buf.subarray(at, headerEnd).toString('utf8').split('\r\n');
    const start = lines.shift() ?? '';
    const headers = new Map<string, string>();
    for (const line of lines) {
      const colon = line.indexOf(':');
      if (colon <= 0) throw new RtspProtocolError(`malformed header line: ${line.slice(0, 80)}`);
      headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
    }
    const length = Number(headers.get('content-length') ?? '0');
    if (!Number.isInteger(length) || length < 0 || length > MAX_BODY_BYTES)
      throw new RtspProtocolError(`bad Content-Length: ${headers.get('content-length')}`);
    const end = headerEnd + 4 + length;
    if (buf.length < end) return undefined;
    const body = Buffer.from(buf.subarray(headerEnd + 4, end));

    const response = /^RTSP\/1\.0 (\d{3}) ?(.*)$/.exec(start);
    if (response) return { end, message: { type: 'response', status: Number(response[1]), reason: response[2] ?? '', headers, body } };
    const request = /^([A-Z_]+) (\S+) RTSP\/1\.0$/.exec(start);
    if (!request) throw new RtspProtocolError(`malformed start line: ${start.slice(0, 80)}`);
    return { end, message: { type: 'request', method: request[1]!, uri: request[2]!, headers, body } };
  }
}

const EMPTY = Buffer.alloc(0);

function looksLikeRtsp(buf: Buffer): boolean {
  const head = buf.subarray(0, Math.min(buf.length, 16)).toString('latin1');
  return /^[A-Z_]{0,16}( |$)/.test(head) || head.startsWith('RTSP/');
}

/** An interleaved frame: `$`, channel, 16-bit length, payload. */
export function interleavedFrame(channel: number, payload: Uint8Array): Buffer {
  const header = Buffer.from([0x24, channel, payload.length >> 8, payload.length & 0xff]);
  return Buffer.concat([header, payload]);
}

export function formatResponse(status: number, reason: string, headers: Record<string, string | number>, body = ''): string {
  const lines = [`RTSP/1.0 ${status} ${reason}`];
  for (const [key, value] of Object.entries(headers)) lines.push(`${key}: ${value}`);
  if (body) lines.push(`Content-Length: ${Buffer.byteLength(body)}`);
  return lines.join('\r\n') + '\r\n\r\n' + body;
}
