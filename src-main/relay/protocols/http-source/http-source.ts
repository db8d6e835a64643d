import type { ProducerConnection } from '../../core/producer';
import { withTimeout } from '../../core/with-timeout';
import type { Demuxer, DemuxSink } from '../../media/containers/demuxer';
import { createFlvDemuxer } from '../../media/containers/flv/flv-demuxer';
import { createMjpegDemuxer } from '../../media/containers/mjpeg/mjpeg-demuxer';
import { createTsDemuxer } from '../../media/containers/mpegts-demux/ts-demuxer';
import { createAdtsDemuxer } from '../../media/containers/elementary/adts-demuxer';
import { createAnnexBDemuxer } from '../../media/containers/elementary/annexb-demuxer';
import { createWavDemuxer } from '../../media/containers/elementary/wav-demuxer';
import { createDemuxedProducer, stoppingWith } from '../../media/frames/demuxed-producer';
import type { FramePacketizer } from '../../media/frames/frame-producer';
import { jpegPacketizers } from '../../media/codecs/jpeg/jpeg-packetizers';
import type { ProtocolContext } from '../protocol-context';
import { detectFormat, multipartBoundary, type HttpSourceFormat } from './detect-format';
import { fetchOk, pollJpeg, readHls, readRest, redactUrl, streamBody, type Pump } from './http-readers';

const FIRST_MEDIA_MS = 10_000;

/**
 * `http://` and `https://` sources: MJPEG (multipart), a JPEG snapshot URL (polled), FLV,
 * MPEG-TS, HLS with MPEG-TS segments, raw H.264/H.265, ADTS AAC and WAV, told apart by
 * Content-Type or by the first bytes. The
 * source is a producer like a camera: when the body ends or fails, the relay dials it again.
 */
export function registerHttpSource({ schemes }: ProtocolContext, packetizers: Record<string, FramePacketizer> = jpegPacketizers): void {
  const handler = { dial: (url: string, context: { signal: AbortSignal }) => dialHttp(url, context.signal, packetizers) };
  schemes.register('http', handler);
  schemes.register('https', handler);
}

async function dialHttp(url: string, outer: AbortSignal, packetizers?: Record<string, FramePacketizer>): Promise<ProducerConnection> {
  const abort = new AbortController();
  const stop = () => abort.abort(new Error('the source was closed'));
  outer.addEventListener('abort', stop, { once: true });
  try {
    const response = await fetchOk(url, abort.signal);
    const reader = response.body?.getReader();
    const first = (await reader?.read())?.value ?? new Uint8Array(0);
    reader?.releaseLock();
    const contentType = response.headers.get('content-type');
    const format = detectFormat(contentType, first);
    if (!format)
      throw new Error(
        `${redactUrl(url)} sent ${contentType ?? 'no Content-Type'}, which is not MJPEG, JPEG, FLV, MPEG-TS, HLS, raw H.264/H.265, ADTS AAC or WAV`,
      );
    const { createDemuxer, pump } = readerFor(format, url, response, first, contentType, abort.signal);
    const demuxed = createDemuxedProducer(createDemuxer, { format_name: format, protocol: 'http', url: redactUrl(url) }, packetizers);
    void pump((chunk) => demuxed.demuxer.push(chunk))
      .then(() => demuxed.demuxer.end())
      .then(
        () => demuxed.end(),
        (error: Error) => demuxed.end(abort.signal.aborted ? undefined : error),
      )
      .finally(() => outer.removeEventListener('abort', stop));
    const producer = await withTimeout(demuxed.ready, FIRST_MEDIA_MS, `no media from ${redactUrl(url)} in ${FIRST_MEDIA_MS / 1000} s`);
    return stoppingWith(producer.connection, stop);
  } catch (error) {
    stop();
    outer.removeEventListener('abort', stop);
    throw error;
  }
}

function readerFor(
  format: HttpSourceFormat,
  url: string,
  response: Response,
  first: Uint8Array,
  contentType: string | null,
  signal: AbortSignal,
): { createDemuxer: (sink: DemuxSink) => Demuxer; pump: Pump } {
  switch (format) {
    case 'mjpeg':
      return {
        createDemuxer: (sink) => createMjpegDemuxer(sink, { boundary: multipartBoundary(contentType) }),
        pump: streamBody(response, first),
      };
    case 'jpeg':
      return { createDemuxer: (sink) => createMjpegDemuxer(sink), pump: pollJpeg(url, first, response, signal) };
    case 'flv':
      return { createDemuxer: createFlvDemuxer, pump: streamBody(response, first) };
    case 'mpegts':
      return { createDemuxer: createTsDemuxer, pump: streamBody(response, first) };
    case 'hls':
      return {
        createDemuxer: createTsDemuxer,
        pump: async (push) => readHls(url, (await readRest(response, first)).toString('utf8'), signal)(push),
      };
    default:
      return { createDemuxer: streamDemuxer(format), pump: streamBody(response, first) };
  }
}

/** The demuxer of a format that arrives as one continuous byte stream (an HTTP body, a TCP socket). */
export function streamDemuxer(format: HttpSourceFormat): (sink: DemuxSink) => Demuxer {
  switch (format) {
    case 'mjpeg':
      return (sink) => createMjpegDemuxer(sink);
    case 'flv':
      return createFlvDemuxer;
    case 'mpegts':
      return createTsDemuxer;
    case 'annexb':
      return (sink) => createAnnexBDemuxer(sink);
    case 'adts':
      return createAdtsDemuxer;
    case 'wav':
      return createWavDemuxer;
    default:
      throw new Error(`${format} does not come as one continuous stream`);
  }
}
