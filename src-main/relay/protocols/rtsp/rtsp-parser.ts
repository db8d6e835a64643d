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

/**
 * Splits a TCP byte stream into RTSP messages and interleaved frames. Bytes may arrive in any
 * chunking; garbage throws RtspProtocolError (the connection is then answered 400 and closed).
 */
export class RtspParser {
  private buffer: Buffer = Buffer.alloc(0);

  push(data: Buffer): RtspChunk[] {
    const out: RtspChunk[] = [];
    const rest = this.buffer;
    if (rest.length === 0) this.buffer = data;
    else if (rest[0] === 0x24) {
      // An interleaved frame cut by the read: join only the bytes it still needs, and parse the
      // rest of the read where it lies. Joining the whole read to the leftover copied nearly
      // every byte a camera sends once more, in a fresh allocation each read.
      const header = rest.length >= 4 ? rest : Buffer.concat([rest, data.subarray(0, 4 - rest.length)]);
      if (header.length < 4) {
        this.buffer = header;
        return out;
      }
      const need = 4 + header.readUInt16BE(2) - rest.length;
      if (need > data.length) {
        this.buffer = Buffer.concat([rest, data]);
        return out;
      }
      const whole = Buffer.concat([rest, data.subarray(0, need)]);
      out.push({ type: 'frame', channel: whole[1]!, payload: whole.subarray(4) });
      this.buffer = data.subarray(need);
    } else this.buffer = Buffer.concat([rest, data]);
    for (;;) {
      const chunk = this.next();
      if (!chunk) return out;
      out.push(chunk);
    }
  }

  private next(): RtspChunk | undefined {
    const buf = this.buffer;
    if (buf.length === 0) return undefined;
    if (buf[0] === 0x24) {
      if (buf.length < 4) return undefined;
      const length = buf.readUInt16BE(2);
      if (buf.length < 4 + length) return undefined;
      const payload = buf.subarray(4, 4 + length);
      this.buffer = buf.subarray(4 + length);
      return { type: 'frame', channel: buf[1]!, payload };
    }
    const headerEnd = buf.indexOf('\r\n\r\n');
    if (headerEnd < 0) {
      if (buf.length > MAX_HEADER_BYTES) throw new RtspProtocolError('RTSP header too long');
      if (!looksLikeRtsp(buf)) throw new RtspProtocolError('not an RTSP message');
      return undefined;
    }
    const lines = buf.subarray(0, headerEnd).toString('utf8').split('\r\n');
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
    if (buf.length < headerEnd + 4 + length) return undefined;
    const body = Buffer.from(buf.subarray(headerEnd + 4, headerEnd + 4 + length));
    this.buffer = buf.subarray(headerEnd + 4 + length);

    const response = /^RTSP\/1\.0 (\d{3}) ?(.*)$/.exec(start);
    if (response) return { type: 'response', status: Number(response[1]), reason: response[2] ?? '', headers, body };
    const request = /^([A-Z_]+) (\S+) RTSP\/1\.0$/.exec(start);
    if (!request) throw new RtspProtocolError(`malformed start line: ${start.slice(0, 80)}`);
    return { type: 'request', method: request[1]!, uri: request[2]!, headers, body };
  }
}

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
