import { HttpError } from '../platform/http/http-error';
import { playIntoBackchannel } from './core/backchannel';
import type { SchemeRegistry } from './core/scheme-registry';
import { redactSource } from './core/redact-source';
import { CodecMismatchError, NoBackchannelError, SourceUnavailableError } from './core/stream';
import { SourceRejectedError, type StreamRegistry } from './core/stream-registry';
import type { TaskRegistry } from './core/task-registry';
import { pushToRtsp } from './protocols/rtsp/rtsp-pusher';

export interface StreamSenderDeps {
  streams: StreamRegistry;
  schemes: SchemeRegistry;
  tasks: TaskRegistry;
}

/**
 * POST /api/streams?src=&dst=: with a stream as dst, plays the source URL into that stream's
 * two-way audio (a clip or a transcoded stream to a camera's speaker); with a stream as src,
 * publishes it to the RTSP URL dst.
 */
export function createStreamSender({ streams, schemes, tasks }: StreamSenderDeps) {
  const asHttpError = (error: unknown, what: string): never => {
    if (error instanceof HttpError) throw error;
    if (error instanceof SourceRejectedError || error instanceof NoBackchannelError || error instanceof CodecMismatchError)
      throw new HttpError(400, error.message);
    if (error instanceof SourceUnavailableError) throw new HttpError(503, error.message);
    throw new HttpError(502, `${what} failed: ${(error as Error).message}`);
  };

  async function playInto(src: string, dst: string): Promise<void> {
    const target = streams.get(dst)!;
    try {
      streams.checkSource(src, 'api');
    } catch (error) {
      asHttpError(error, 'checking the source');
    }
    const hold = await target
      .openBackchannel({ format_name: 'backchannel', protocol: 'play', source: redactSource(src) })
      .catch((error: unknown) => asHttpError(error, `opening the two-way audio of ${dst}`));
    const abort = new AbortController();
    hold.onClose(() => abort.abort());
    const untrack = tasks.add('consumer', `playing ${redactSource(src)} into the two-way audio of ${dst}`);
    hold.onClose(untrack);
    try {
      const connection = await schemes.resolve(src)!.dial(src, { signal: abort.signal, streamName: dst });
      void connection.closed.then(untrack);
      playIntoBackchannel(hold, connection, dst);
    } catch (error) {
      untrack();
      hold.release();
      asHttpError(error, `playing ${redactSource(src)}`);
    }
  }

  return async function send(src: string, dst: string): Promise<void> {
    if (streams.get(dst)) return playInto(src, dst);
    if (!/^rtsps?:\/\//i.test(dst)) throw new HttpError(400, `dst must be a stream name or an rtsp:// URL, got ${dst}`);
    try {
      await pushToRtsp(streams.get(src)!, dst, tasks);
    } catch (error) {
      asHttpError(error, `sending ${src} to the destination`);
    }
  };
}
