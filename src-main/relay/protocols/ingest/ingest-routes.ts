import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpError } from '@main/platform/http/http-error';
import type { Demuxer, DemuxSink } from '../../media/containers/demuxer';
import { createFlvDemuxer } from '../../media/containers/flv/flv-demuxer';
import { createTsDemuxer } from '../../media/containers/mpegts-demux/ts-demuxer';
import { createMjpegDemuxer } from '../../media/containers/mjpeg/mjpeg-demuxer';
import { jpegPacketizers } from '../../media/codecs/jpeg/jpeg-packetizers';
import type { FramePacketizer } from '../../media/frames/frame-producer';
import { createDemuxedProducer } from '../../media/frames/demuxed-producer';
import type { ProtocolContext } from '../protocol-context';

export interface IngestFormat {
  path: string;
  format: string;
  createDemuxer: (sink: DemuxSink) => Demuxer;
  packetizers?: Record<string, FramePacketizer>;
}

/** The containers a client may POST as a live stream, as go2rtc has them. */
const INGEST_FORMATS: IngestFormat[] = [
  { path: '/api/stream.flv', format: 'flv', createDemuxer: createFlvDemuxer },
  { path: '/api/stream.ts', format: 'mpegts', createDemuxer: createTsDemuxer },
  { path: '/api/stream.mjpeg', format: 'mjpeg', createDemuxer: (sink) => createMjpegDemuxer(sink), packetizers: jpegPacketizers },
];

/**
 * POST /api/stream.flv|ts|mjpeg?dst=<stream>: the request body is a live stream that becomes a
 * producer of dst for as long as the upload lasts. The answer comes when the upload ends:
 * 200 when it ended cleanly, 400 naming the problem when the bytes were not what the path says;
 * either way the producer is gone with it.
 */
export function registerIngest(protocols: ProtocolContext, formats: IngestFormat[] = INGEST_FORMATS): void {
  protocols.ctx.http.add(
    formats.map((format) => ({
      method: 'POST',
      path: format.path,
      handler: ({ req, res, url }) => ingest(protocols, format, req, res, url),
    })),
  );
}

async function ingest(
  protocols: ProtocolContext,
  format: IngestFormat,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
): Promise<void> {
  const dst = url.searchParams.get('dst')?.trim();
  if (!dst) throw new HttpError(400, 'dst is required: the stream the upload feeds');
  const stream = protocols.streams.get(dst);
  if (!stream) throw new HttpError(404, `stream not found: ${dst}`);
  const remote = `${req.socket.remoteAddress}:${req.socket.remotePort}`;
  const source = `${format.format}://${remote}/${dst}`;
  const untrack = protocols.tasks.add('socket', `${format.format} upload from ${remote} into ${dst}`);
  const upload = createDemuxedProducer(
    format.createDemuxer,
    { format_name: format.format, protocol: 'http', remote_addr: remote, user_agent: req.headers['user-agent'] },
    format.packetizers,
  );
  void upload.ready.then(
    (producer) => stream.addPushed(source, producer.connection),
    () => undefined,
  );
  let ended = false;
  const finish = (error?: Error) => {
    if (ended) return;
    ended = true;
    upload.end(error);
    untrack();
  };
  const error = await readUpload(req, upload.demuxer);
  if (error) {
    finish(error);
    if (res.headersSent || res.destroyed) return;
    res.writeHead(400, { 'Content-Type': 'text/plain; charset=utf-8', Connection: 'close' });
    // Stop reading a body that is not what it claims to be once the client has the answer.
    res.end(`${error.message}\n`, () => req.destroy());
    return;
  }
  finish();
  res.writeHead(200).end();
}

/**
 * Feeds the body to the demuxer; resolves with the first error (bad bytes, or the client gone)
 * or undefined when the body ended cleanly. Reading stops at the error but the socket stays, so
 * the 400 can still reach the client (a `for await` would destroy it on the way out).
 */
function readUpload(req: IncomingMessage, demuxer: Demuxer): Promise<Error | undefined> {
  return new Promise((resolve) => {
    const fail = (error: Error) => {
      req.off('data', onData);
      req.pause();
      resolve(error);
    };
    const onData = (chunk: Buffer) => {
      try {
        demuxer.push(chunk);
      } catch (error) {
        fail(error as Error);
      }
    };
    req.on('data', onData);
    req.once('end', () => {
      try {
        demuxer.end();
        resolve(undefined);
      } catch (error) {
        resolve(error as Error);
      }
    });
    req.once('close', () => resolve(req.complete ? undefined : new Error('the upload was cut off')));
  });
}
