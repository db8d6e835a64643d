import type { IncomingMessage } from 'node:http';
import { crossSiteCaller, isCrossSiteRequest } from '@main/platform/http/cross-origin';
import { HttpError } from '@main/platform/http/http-error';
import type { MediaFrame } from '../../core/media';
import type { MediaRequest } from '../../core/negotiation';
import { CodecMismatchError, SourceUnavailableError, type Stream } from '../../core/stream';
import { SourceRejectedError, type StreamRegistry } from '../../core/stream-registry';
import type { TaskRegistry } from '../../core/task-registry';
import { createFrameConsumer, type FrameConsumer, type FrameTrack } from './frame-consumer';

export interface OutputDeps {
  streams: StreamRegistry;
  tasks: TaskRegistry;
  /**
   * The API asks every caller for a username and password, so a request that reaches an output
   * has given them: pages of other sites may then open source URLs too (they had to log in).
   */
  callersAuthenticated: boolean;
}

export interface FrameOutputRequest {
  /** `src` of the query: a stream name, or a source URL played through a temporary stream. */
  src: string | null;
  requests: MediaRequest[];
  /** Stats name of the output: `mp4`, `hls`, `mjpeg`, ... */
  format: string;
  /**
   * The HTTP request (who may open a source URL; remote address and user agent in the stats).
   * Absent for the relay's own outputs, which are not callers of another site.
   */
  request?: IncomingMessage;
  onFrame(track: FrameTrack, frame: MediaFrame): void;
  onClose(reason: string): void;
}

export interface FrameOutput {
  readonly consumer: FrameConsumer;
  readonly streamName: string;
  /** A source URL played through a temporary stream (never answered to other sites' pages). */
  readonly temporary: boolean;
  /** Detaches from the stream (and drops a temporary stream with its last output); idempotent. */
  release(): void;
}

/**
 * Connects an HTTP output to the stream `src` names, with the errors go2rtc users see: 400
 * without src or for a source the API may not run, 404 for an unknown name, 503 when no source
 * answers, 400 when the source's codecs are not what the output takes (the message names both).
 * A URL as `src` makes a temporary stream that lives while outputs use it.
 */
export async function attachFrameOutput(deps: OutputDeps, output: FrameOutputRequest): Promise<FrameOutput> {
  const src = output.src?.trim();
  if (!src) throw new HttpError(400, 'src is required: a stream name or a source URL');
  const opened = openOutputStream(deps, src, output.request);
  const { stream } = opened;
  const consumer = createFrameConsumer({
    requests: output.requests,
    label: {
      format_name: output.format,
      protocol: 'http',
      remote_addr: output.request ? `${output.request.socket.remoteAddress}:${output.request.socket.remotePort}` : undefined,
      user_agent: output.request?.headers['user-agent'],
    },
    onFrame: output.onFrame,
    onClose: (reason) => {
      release();
      output.onClose(reason);
    },
  });
  const untrack = deps.tasks.add('consumer', `${output.format} ${src}`);
  let released = false;
  function release(): void {
    if (released) return;
    released = true;
    stream.removeConsumer(consumer);
    untrack();
    opened.release();
  }
  try {
    await stream.addConsumer(consumer);
  } catch (error) {
    release();
    if (error instanceof CodecMismatchError) throw new HttpError(400, error.message);
    if (error instanceof SourceUnavailableError) throw new HttpError(503, error.message);
    throw error;
  }
  return { consumer, streamName: src, temporary: opened.temporary, release };
}

/** The stream an output plays, and what to call when the output is done with it. */
export interface OpenedStream {
  stream: Stream;
  /** Made for a source URL, for as long as outputs use it. */
  temporary: boolean;
  /** Drops a temporary stream once nothing uses it any more; nothing for a named stream. */
  release(): void;
}

/**
 * A named stream, or a temporary one for a source URL (as go2rtc's outputs and its WebRTC over
 * /api/ws take a URL as `src`). A page of another site must never make
 * the relay dial a URL of its choosing (a camera on the LAN, a file through ffmpeg:) and read
 * the picture back, not even by an `<img>` that sends no Origin: source URLs are opened for tools,
 * the console itself and, when the API has a password, callers that logged in; other sites'
 * pages get 403 before anything is dialed.
 */
export function openOutputStream(
  deps: Pick<OutputDeps, 'streams' | 'callersAuthenticated'>,
  src: string,
  request: IncomingMessage | undefined,
): OpenedStream {
  const { streams } = deps;
  const named = openNamedStream(streams, src);
  if (named) return named;
  if (!/^[a-z][a-z0-9+.-]*:/i.test(src)) throw new HttpError(404, `stream not found: ${src}`);
  if (request && isCrossSiteRequest(request) && !deps.callersAuthenticated) {
    throw new HttpError(
      403,
      `${crossSiteCaller(request)} may not open source URLs through this relay: add the source as a named stream, or set api.username and api.password`,
    );
  }
  try {
    streams.checkSource(src, 'api');
  } catch (error) {
    if (error instanceof SourceRejectedError) throw new HttpError(400, error.message);
    throw error;
  }
  const stream = streams.set(src, [src]);
  return {
    stream,
    temporary: true,
    release: () => {
      if (stream.info().consumers.length === 0 && streams.get(src) === stream) streams.delete(src);
    },
  };
}

/** A stream of the config by name (a publisher's `dst`, which is never a URL), or undefined. */
export function openNamedStream(streams: StreamRegistry, name: string): OpenedStream | undefined {
  const stream = streams.get(name);
  return stream ? { stream, temporary: false, release: () => undefined } : undefined;
}
