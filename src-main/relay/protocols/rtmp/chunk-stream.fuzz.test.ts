import { EventEmitter } from 'node:events';
import type { Socket } from 'node:net';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fuzzCases, fuzzTimeout, valueOrTypedError } from '@main/test-support/fuzz-budget';
import { damagedSample, splitAt } from '@main/test-support/fuzz-inputs';
import { AmfError, encodeAmf0Values } from './amf0';
import { ChunkReader, RtmpProtocolError, writeChunks } from './chunk-stream';
import { RtmpConnection } from './rtmp-connection';

// A publisher's first messages as chunks (after the handshake): Set Chunk Size, Window Ack,
// connect, createStream, publish, onMetaData, media with an extended timestamp, a ping, an
// abort; then hand-made format 1-3 headers and a two-byte chunk stream id.
const command = (csid: number, values: Parameters<typeof encodeAmf0Values>[0], streamId = 0) =>
  writeChunks(csid, { type: 20, streamId, timestamp: 0, payload: encodeAmf0Values(values) }, 128);
const control = (type: number, payload: number[]) =>
  writeChunks(2, { type, streamId: 0, timestamp: 0, payload: Buffer.from(payload) }, 128);
const SESSION = Buffer.concat([
  control(1, [0, 0, 0x10, 0]),
  control(5, [0, 0x26, 0x25, 0xa0]),
  command(3, ['connect', 1, { app: 'live', type: 'nonprivate', tcUrl: 'rtmp://127.0.0.1/live' }]),
  command(3, ['createStream', 4, null]),
  command(4, ['publish', 5, null, 'garage', 'live'], 1),
  writeChunks(
    4,
    { type: 18, streamId: 1, timestamp: 0, payload: encodeAmf0Values(['@setDataFrame', 'onMetaData', { width: 320, height: 240 }]) },
    128,
  ),
  writeChunks(6, { type: 9, streamId: 1, timestamp: 0x1234567, payload: Buffer.alloc(300, 0x17) }, 128),
  control(4, [0, 6, 0, 0, 0, 1]),
  control(2, [0, 0, 0, 6]),
  writeChunks(70, { type: 8, streamId: 1, timestamp: 1000, payload: Buffer.from('aaaa') }, 128),
  Buffer.from([(2 << 6) | 0, 70 - 64, 0, 0, 40]),
  Buffer.from('bbbb'),
  Buffer.from([(3 << 6) | 0, 70 - 64]),
  Buffer.from('cccc'),
  Buffer.from([(1 << 6) | 6, 0, 0, 40, 0, 0, 2, 9, 0xaa, 0xbb]),
]);
const SAMPLES = [SESSION, SESSION.subarray(0, 200), SESSION.subarray(150)];

const input = fc.oneof(
  { weight: 3, arbitrary: damagedSample(SAMPLES, 16) },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 800 }).map((b) => Buffer.from(b)) },
);
const cuts = fc.array(fc.nat(), { maxLength: 12 });

/** A socket as RtmpConnection uses it, with the handshake already done. */
function openServerConnection() {
  const socket = Object.assign(new EventEmitter(), {
    destroyed: false,
    write: () => true,
    destroy: () => ((socket.destroyed = true), socket),
    end: () => socket,
  });
  const errors: Error[] = [];
  const connection = new RtmpConnection(socket as unknown as Socket, 'server', {
    command: () => undefined,
    data: () => undefined,
    media: () => undefined,
    error: (error) => errors.push(error),
  });
  socket.emit('data', Buffer.concat([Buffer.from([3]), Buffer.alloc(1536), Buffer.alloc(1536)]));
  return { socket, errors, connection };
}

describe('fuzz: RTMP chunk stream', () => {
  it(
    'the chunk reader returns messages or throws RtmpProtocolError, in any chunking and chunk size',
    () => {
      fc.assert(
        fc.property(input, cuts, fc.integer({ min: 1, max: 70_000 }), (bytes, at, chunkSize) => {
          const reader = new ChunkReader(() => undefined, { maxMessageBytes: 64 * 1024 });
          reader.chunkSize = chunkSize;
          return valueOrTypedError(() => {
            for (const chunk of splitAt(bytes, at)) reader.push(chunk);
          }, RtmpProtocolError);
        }),
        fuzzCases(2_000),
      );
    },
    fuzzTimeout(),
  );

  it(
    'a server connection turns any bytes after the handshake into commands or a typed error, and then closes',
    () => {
      fc.assert(
        fc.property(input, cuts, (bytes, at) => {
          const { socket, errors } = openServerConnection();
          for (const chunk of splitAt(bytes, at)) {
            if (socket.destroyed) break;
            socket.emit('data', chunk);
          }
          for (const error of errors) if (!(error instanceof RtmpProtocolError || error instanceof AmfError)) throw error;
          expect(errors.length > 0).toBe(socket.destroyed);
        }),
        fuzzCases(2_000),
      );
    },
    fuzzTimeout(),
  );
});
