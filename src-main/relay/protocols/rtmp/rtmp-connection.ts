import { randomBytes } from 'node:crypto';
import type { Socket } from 'node:net';
import { decodeAmf0Values, encodeAmf0Values, type AmfValue } from './amf0';
import { ChunkReader, RtmpProtocolError, writeChunks, type RtmpMessage } from './chunk-stream';
import { MEDIA_MESSAGE_BYTES } from './rtmp-limits';

// Message types (RTMP spec, 5.4 and 7.1).
export const MSG = {
  SET_CHUNK_SIZE: 1,
  ABORT: 2,
  ACK: 3,
  USER_CONTROL: 4,
  WINDOW_ACK_SIZE: 5,
  SET_PEER_BANDWIDTH: 6,
  AUDIO: 8,
  VIDEO: 9,
  DATA_AMF3: 15,
  COMMAND_AMF3: 17,
  DATA_AMF0: 18,
  COMMAND_AMF0: 20,
} as const;

const HANDSHAKE_BYTES = 1536;
const OUT_CHUNK_SIZE = 4096;
const WINDOW_ACK_SIZE = 2_500_000;
/** Chunk stream ids as Flash used them: control, commands, then media on its own. */
const CSID = { CONTROL: 2, COMMAND: 3, MEDIA: 6 } as const;

export interface RtmpCommand {
  name: string;
  transaction: number;
  object: AmfValue;
  args: AmfValue[];
  streamId: number;
}

/**
 * One RTMP connection, either side: the handshake (the plain one, with no digest: ffmpeg, OBS
 * and cameras accept it), the chunk stream both ways, and the protocol control messages
 * (chunk size, acknowledgements, ping) answered here so the roles see only commands, data and media.
 */
export class RtmpConnection {
  private readonly reader: ChunkReader;
  private received = 0;
  private acknowledged = 0;
  private peerWindow = 0;
  private handshakeBuffer: Buffer = Buffer.alloc(0);
  private handshakeDone: () => void = () => undefined;
  private state: 'c0c1' | 'c2' | 's0s1s2' | 'open' = 'open';
  private released = false;
  readonly ready: Promise<void>;

  /** `maxMessageBytes`: what the peer may send at first (a server lowers it until publish). */
  constructor(
    readonly socket: Socket,
    role: 'server' | 'client',
    private readonly handlers: {
      command: (command: RtmpCommand) => void;
      data: (message: RtmpMessage) => void;
      media: (message: RtmpMessage) => void;
      error: (error: Error) => void;
    },
    maxMessageBytes = MEDIA_MESSAGE_BYTES,
  ) {
    this.reader = new ChunkReader((message) => this.dispatch(message), { maxMessageBytes });
    this.state = role === 'server' ? 'c0c1' : 's0s1s2';
    this.ready = new Promise((resolve) => (this.handshakeDone = resolve));
    socket.on('data', (data: Buffer) => {
      if (this.released) return; // bytes read before the close took effect
      try {
        this.onData(data);
      } catch (error) {
        handlers.error(error as Error);
        socket.destroy();
      }
    });
    socket.once('close', () => this.release());
    if (role === 'client') socket.write(Buffer.concat([Buffer.from([3]), this.handshakePacket()]));
  }

  /** Bytes held for the peer's unfinished handshake and messages. */
  get bufferedBytes(): number {
    return this.handshakeBuffer.length + this.reader.bufferedBytes;
  }

  /** Lets the peer send messages up to `bytes` (a publisher once it is let in). */
  allowMessagesUpTo(bytes: number): void {
    this.reader.maxMessageBytes = bytes;
  }

  /** On close: whatever still refers to this connection no longer keeps the peer's bytes. */
  private release(): void {
    this.released = true;
    this.handshakeBuffer = Buffer.alloc(0);
    this.reader.release();
  }

  private handshakePacket(echo?: Buffer): Buffer {
    if (echo) return echo;
    const packet = Buffer.alloc(HANDSHAKE_BYTES);
    packet.writeUInt32BE(0, 0);
    // Bytes 4-7 zero: "no digest", which ffmpeg and librtmp take as the plain handshake.
    randomBytes(HANDSHAKE_BYTES - 8).copy(packet, 8);
    return packet;
  }

  private onData(data: Buffer): void {
    this.received += data.length;
    if (this.state === 'open') {
      this.reader.push(data);
      this.acknowledge();
      return;
    }
    this.handshakeBuffer = Buffer.concat([this.handshakeBuffer, data]);
    const b = this.handshakeBuffer;
    if (this.state === 'c0c1' && b.length >= 1 + HANDSHAKE_BYTES) {
      if (b[0] !== 3) throw new RtmpProtocolError(`the client asked for RTMP version ${b[0]} (only 3, plain RTMP, is spoken here)`);
      this.socket.write(Buffer.concat([Buffer.from([3]), this.handshakePacket(), b.subarray(1, 1 + HANDSHAKE_BYTES)]));
      this.handshakeBuffer = b.subarray(1 + HANDSHAKE_BYTES);
      this.state = 'c2';
    }
    const rest = this.handshakeBuffer;
    if (this.state === 'c2' && rest.length >= HANDSHAKE_BYTES) {
      this.open(rest.subarray(HANDSHAKE_BYTES));
    } else if (this.state === 's0s1s2' && rest.length >= 1 + 2 * HANDSHAKE_BYTES) {
      if (rest[0] !== 3) throw new RtmpProtocolError(`the server answered RTMP version ${rest[0]}`);
      this.socket.write(rest.subarray(1, 1 + HANDSHAKE_BYTES));
      this.open(rest.subarray(1 + 2 * HANDSHAKE_BYTES));
    }
  }

  private open(rest: Buffer): void {
    this.state = 'open';
    this.handshakeBuffer = Buffer.alloc(0);
    this.send(CSID.CONTROL, MSG.SET_CHUNK_SIZE, 0, 0, uint32(OUT_CHUNK_SIZE));
    this.handshakeDone();
    if (rest.length > 0) this.reader.push(rest);
  }

  private acknowledge(): void {
    if (this.peerWindow > 0 && this.received - this.acknowledged >= this.peerWindow) {
      this.acknowledged = this.received;
      this.send(CSID.CONTROL, MSG.ACK, 0, 0, uint32(this.received >>> 0));
    }
  }

  private dispatch(message: RtmpMessage): void {
    switch (message.type) {
      case MSG.SET_CHUNK_SIZE: {
        const size = controlValue(message, 4, 'Set Chunk Size').readUInt32BE(0) & 0x7fffffff;
        if (size < 1) throw new RtmpProtocolError('the peer set a chunk size of 0');
        this.reader.chunkSize = size;
        return;
      }
      case MSG.WINDOW_ACK_SIZE:
        this.peerWindow = controlValue(message, 4, 'Window Acknowledgement Size').readUInt32BE(0);
        return;
      case MSG.USER_CONTROL: {
        // PingRequest (6) is answered with PingResponse (7) and the same time.
        const event = controlValue(message, 2, 'User Control').readUInt16BE(0);
        if (event === 6)
          this.send(
            CSID.CONTROL,
            MSG.USER_CONTROL,
            0,
            0,
            Buffer.concat([Buffer.from([0, 7]), controlValue(message, 6, 'PingRequest').subarray(2, 6)]),
          );
        return;
      }
      case MSG.ABORT:
        this.reader.abort(controlValue(message, 4, 'Abort').readUInt32BE(0));
        return;
      case MSG.ACK:
      case MSG.SET_PEER_BANDWIDTH:
        return;
      case MSG.COMMAND_AMF0:
      case MSG.COMMAND_AMF3: {
        // AMF3 commands start with a format byte, then AMF0 values as Flash writes them.
        const values = decodeAmf0Values(message.type === MSG.COMMAND_AMF3 ? message.payload.subarray(1) : message.payload);
        const [name, transaction, object, ...args] = values;
        if (typeof name !== 'string') throw new RtmpProtocolError('a command without a name');
        this.handlers.command({
          name,
          transaction: typeof transaction === 'number' ? transaction : 0,
          object: object ?? null,
          args,
          streamId: message.streamId,
        });
        return;
      }
      case MSG.DATA_AMF0:
      case MSG.DATA_AMF3:
        this.handlers.data(message.type === MSG.DATA_AMF3 ? { ...message, payload: message.payload.subarray(1) } : message);
        return;
      case MSG.AUDIO:
      case MSG.VIDEO:
        this.handlers.media(message);
        return;
      default:
        return; // shared objects, aggregates: not used by publishers or cameras we meet
    }
  }

  send(csid: number, type: number, streamId: number, timestamp: number, payload: Buffer): void {
    if (this.socket.destroyed) return;
    this.socket.write(writeChunks(csid, { type, streamId, timestamp, payload }, this.state === 'open' ? OUT_CHUNK_SIZE : 128));
  }

  command(name: string, transaction: number, object: AmfValue, args: AmfValue[] = [], streamId = 0): void {
    this.send(CSID.COMMAND, MSG.COMMAND_AMF0, streamId, 0, encodeAmf0Values([name, transaction, object, ...args]));
  }

  /** Window size and peer bandwidth, as a server sends them after connect. */
  sendBandwidth(): void {
    this.send(CSID.CONTROL, MSG.WINDOW_ACK_SIZE, 0, 0, uint32(WINDOW_ACK_SIZE));
    this.send(CSID.CONTROL, MSG.SET_PEER_BANDWIDTH, 0, 0, Buffer.concat([uint32(WINDOW_ACK_SIZE), Buffer.from([2])]));
  }

  /** User control StreamBegin (0) for a message stream. */
  streamBegin(streamId: number): void {
    this.send(CSID.CONTROL, MSG.USER_CONTROL, 0, 0, Buffer.concat([Buffer.from([0, 0]), uint32(streamId)]));
  }
}

/** A protocol control message's payload, refused when shorter than its fixed fields. */
function controlValue(message: RtmpMessage, bytes: number, name: string): Buffer {
  if (message.payload.length < bytes) throw new RtmpProtocolError(`a ${name} message of ${message.payload.length} bytes (it has ${bytes})`);
  return message.payload;
}

function uint32(value: number): Buffer {
  const out = Buffer.alloc(4);
  out.writeUInt32BE(value >>> 0);
  return out;
}
