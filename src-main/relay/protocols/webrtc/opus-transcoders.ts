import type { ProducerConnection, ProducerDialer } from '../../core/producer';
import type { Stream } from '../../core/stream';

/**
 * Opus for WebRTC viewers of a stream whose audio no browser plays (AAC from most cameras):
 * `ffmpeg:<stream>#audio=opus` joins the stream as a pushed producer while any such viewer
 * watches, one ffmpeg per stream however many viewers share it, as Home Assistant users write
 * that source by hand for go2rtc.
 */
export interface OpusTranscoders {
  /** Starts (or joins) the stream's transcoder; resolves when Opus flows, with the call that lets it go. */
  hold(stream: Stream, streamName: string): Promise<() => void>;
  close(): void;
}

interface Running {
  holders: number;
  ready: Promise<ProducerConnection>;
  abort: AbortController;
}

/** The source a stream's transcoder is listed under in /api/streams. */
export const opusSourceFor = (streamName: string) => `ffmpeg:${streamName}#audio=opus`;

export function createOpusTranscoders(dialFfmpeg: ProducerDialer): OpusTranscoders {
  const running = new Map<Stream, Running>();

  const release = (stream: Stream, entry: Running) => {
    entry.holders--;
    if (entry.holders > 0 || running.get(stream) !== entry) return;
    running.delete(stream);
    entry.abort.abort();
    void entry.ready.then((producer) => producer.close()).catch(() => undefined);
  };

  return {
    async hold(stream, streamName) {
      let entry = running.get(stream);
      if (!entry) {
        const abort = new AbortController();
        const url = opusSourceFor(streamName);
        const ready = dialFfmpeg(url, { signal: abort.signal, streamName }).then((producer) => {
          stream.addPushed(url, producer);
          // ffmpeg gone (it failed, or the stream was deleted): the next viewer starts a new one.
          void producer.closed.then(() => running.get(stream) === created && running.delete(stream));
          return producer;
        });
        const created: Running = { holders: 0, ready, abort };
        entry = created;
        running.set(stream, entry);
      }
      entry.holders++;
      const held = entry;
      try {
        await held.ready;
      } catch (error) {
        release(stream, held);
        if (running.get(stream) === held) running.delete(stream);
        throw error;
      }
      let released = false;
      return () => {
        if (released) return;
        released = true;
        release(stream, held);
      };
    },
    close() {
      for (const [stream, entry] of [...running]) {
        entry.holders = 1;
        release(stream, entry);
      }
    },
  };
}
