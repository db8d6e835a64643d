import { connect, type Socket } from 'node:net';
import { encodeAmf0Values, type AmfValue } from './amf0';
import { writeChunks } from './chunk-stream';

// A bare RTMP client for tests: it does the handshake and sends hand-made chunks, so a test
// can stop half way or send what no real publisher would.

const HANDSHAKE_BYTES = 1536;

export interface TestPeer {
  socket: Socket;
  /** Resolves once the server closed the connection (or it failed): with the milliseconds it took from the call. */
  closed: Promise<number>;
  isOpen(): boolean;
  /** C0 C1, waits for S0 S1 S2, sends C2. */
  handshake(): Promise<void>;
  command(values: AmfValue[], streamId?: number): void;
  /** Bytes the server sent after the handshake, as text (AMF0 strings show as themselves). */
  received(): string;
}

export async function openTestPeer(port: number): Promise<TestPeer> {
  const socket = connect({ host: '127.0.0.1', port });
  const started = Date.now();
  let open = true;
  const closed = new Promise<number>((resolve) =>
    socket.once('close', () => {
      open = false;
      resolve(Date.now() - started);
    }),
  );
  socket.on('error', () => undefined);
  let bytes = Buffer.alloc(0);
  socket.on('data', (data: Buffer) => (bytes = Buffer.concat([bytes, data])));
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  return {
    socket,
    closed,
    isOpen: () => open,
    async handshake() {
      socket.write(Buffer.concat([Buffer.from([3]), Buffer.alloc(HANDSHAKE_BYTES)]));
      while (bytes.length < 1 + 2 * HANDSHAKE_BYTES) {
        if (!open) throw new Error('the server closed the connection during the handshake');
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      socket.write(bytes.subarray(1, 1 + HANDSHAKE_BYTES));
      bytes = bytes.subarray(1 + 2 * HANDSHAKE_BYTES);
    },
    command(values, streamId = 0) {
      socket.write(writeChunks(3, { type: 20, streamId, timestamp: 0, payload: encodeAmf0Values(values) }, 128));
    },
    received: () => bytes.toString('latin1'),
  };
}

/** A format 0 chunk header announcing a message of `length` bytes on chunk stream `csid` (default chunk size 128 follows). */
export function messageHeader(csid: number, type: number, length: number, streamId = 0): Buffer {
  const header = Buffer.alloc(12);
  header[0] = csid;
  header.writeUIntBE(length, 4, 3);
  header[7] = type;
  header.writeUInt32LE(streamId, 8);
  return header;
}

/**
 * `length` bytes of a message body as 128-byte chunks after its header: format 3 continuations.
 * Stop short of a message only at a multiple of 128, or the next header is read as body.
 */
export function messageBody(csid: number, length: number): Buffer {
  const parts: Buffer[] = [];
  for (let at = 0; at < length; at += 128) {
    if (at > 0) parts.push(Buffer.from([(3 << 6) | csid]));
    parts.push(Buffer.alloc(Math.min(128, length - at), 0x17));
  }
  return Buffer.concat(parts);
}

export async function until(check: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
