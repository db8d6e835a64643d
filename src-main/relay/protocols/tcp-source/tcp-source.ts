import { connect, type Socket } from 'node:net';
import type { ProducerConnection } from '../../core/producer';
import { withTimeout } from '../../core/with-timeout';
import { createDemuxedProducer, stoppingWith } from '../../media/frames/demuxed-producer';
import { detectFormat } from '../http-source/detect-format';
import { streamDemuxer } from '../http-source/http-source';
import type { ProtocolContext } from '../protocol-context';

/** How long a dial waits, first for any byte, then for the tracks of the format those bytes began. */
export interface TcpDialTimeouts {
  firstBytesMs: number;
  /** A socket that streams only padding or a TS without a program map would otherwise hold its viewers forever. */
  firstMediaMs: number;
}

const DEFAULT_TIMEOUTS: TcpDialTimeouts = { firstBytesMs: 10_000, firstMediaMs: 10_000 };

/**
 * `tcp://host:port` sources, as go2rtc has them: a socket that streams media with no protocol
 * around it (a Raspberry Pi's `libcamera-vid --listen -o tcp://0.0.0.0:8888`, a `nc` pipe), its
 * format told from the first bytes: MPEG-TS, FLV, MJPEG, raw H.264/H.265, ADTS AAC or WAV.
 */
export function registerTcpSource({ schemes }: ProtocolContext): void {
  schemes.register('tcp', { dial: (url, context) => dialTcp(url, context.signal) });
}

function firstChunk(socket: Socket, signal: AbortSignal, timeoutMs: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error(`no data within ${timeoutMs / 1000} s`)), timeoutMs);
    const cleanup = () => {
      clearTimeout(timer);
      socket.off('data', onData);
      socket.off('error', fail);
      socket.off('end', onEnd);
      signal.removeEventListener('abort', onAbort);
    };
    const fail = (error: Error) => {
      cleanup();
      reject(error);
    };
    const onData = (chunk: Buffer) => {
      cleanup();
      socket.pause();
      resolve(chunk);
    };
    const onEnd = () => fail(new Error('the connection closed before any data'));
    const onAbort = () => fail(new Error('the source was closed'));
    socket.on('data', onData);
    socket.once('error', fail);
    socket.once('end', onEnd);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

export async function dialTcp(url: string, signal: AbortSignal, timeouts: TcpDialTimeouts = DEFAULT_TIMEOUTS): Promise<ProducerConnection> {
  const target = new URL(url);
  if (!target.hostname || !target.port) throw new Error(`${url}: expected tcp://host:port`);
  const socket = connect({ host: target.hostname, port: Number(target.port) });
  const stop = () => socket.destroy();
  signal.addEventListener('abort', stop, { once: true });
  try {
    const first = await firstChunk(socket, signal, timeouts.firstBytesMs);
    const detected = detectFormat(null, first);
    // JPEGs one after another on a socket are MJPEG.
    const format = detected === 'jpeg' ? 'mjpeg' : detected;
    if (!format || format === 'hls')
      throw new Error(
        `${target.host} sent bytes that are not MPEG-TS, FLV, MJPEG, raw H.264/H.265, ADTS AAC or WAV (they begin ${first.subarray(0, 4).toString('hex')})`,
      );
    const demuxed = createDemuxedProducer(streamDemuxer(format), {
      format_name: format,
      protocol: 'tcp',
      remote_addr: `${target.hostname}:${target.port}`,
      url: `tcp://${target.host}`,
    });
    let ended = false;
    const end = (error?: Error) => {
      if (ended) return;
      ended = true;
      demuxed.end(error);
    };
    const push = (chunk: Buffer) => {
      try {
        demuxed.demuxer.push(chunk);
      } catch (error) {
        end(error as Error);
        socket.destroy();
      }
    };
    push(first);
    socket.on('data', push);
    socket.once('close', () => {
      signal.removeEventListener('abort', stop);
      if (ended) return;
      try {
        demuxed.demuxer.end();
        end(signal.aborted ? undefined : new Error(`${target.host} closed the connection`));
      } catch (error) {
        end(error as Error);
      }
    });
    socket.on('error', () => undefined); // 'close' follows and ends the producer
    socket.resume();
    const producer = await withTimeout(
      demuxed.ready,
      timeouts.firstMediaMs,
      `no media from ${target.host} within ${timeouts.firstMediaMs / 1000} s (its bytes looked like ${format})`,
    );
    return stoppingWith(producer.connection, stop);
  } catch (error) {
    stop();
    signal.removeEventListener('abort', stop);
    throw error;
  }
}
