import type { ConnectionInfo, ProducerConnection } from '../../core/producer';
import type { Demuxer, DemuxSink } from '../containers/demuxer';
import { createFrameProducer, type FramePacketizer, type FrameProducer } from './frame-producer';

export interface DemuxedProducer {
  readonly demuxer: Demuxer;
  /** Resolves with the producer once the demuxer knows the tracks. */
  readonly ready: Promise<FrameProducer>;
  /** The input ended (well, or with `error`): ends the producer, or fails `ready` if none yet. */
  end(error?: Error): void;
}

/**
 * A demuxer feeding a frame producer: bytes of a container in, a relay source out. The producer
 * exists once the container has told its tracks; until then `ready` waits.
 */
export function createDemuxedProducer(
  createDemuxer: (sink: DemuxSink) => Demuxer,
  label: ConnectionInfo,
  packetizers?: Record<string, FramePacketizer>,
): DemuxedProducer {
  let producer: FrameProducer | undefined;
  let settle!: { resolve: (p: FrameProducer) => void; reject: (e: Error) => void };
  const ready = new Promise<FrameProducer>((resolve, reject) => (settle = { resolve, reject }));
  // Nobody may be waiting yet when the input fails early; the caller sees the error from `end`.
  ready.catch(() => undefined);
  const demuxer = createDemuxer({
    tracks(tracks) {
      producer = createFrameProducer({ tracks, label, packetizers });
      settle.resolve(producer);
    },
    frame(track, frame) {
      producer?.push(track, frame);
    },
  });
  return {
    demuxer,
    ready,
    end(error) {
      if (producer) producer.end(error);
      else settle.reject(error ?? new Error(`the ${demuxer.format} input ended before any media`));
    },
  };
}

/** A demuxed producer's connection whose close also stops what feeds it (the HTTP body, the socket). */
export function stoppingWith(connection: ProducerConnection, stop: () => void): ProducerConnection {
  return {
    medias: connection.medias,
    closed: connection.closed,
    start: (sink) => connection.start(sink),
    info: () => connection.info(),
    close() {
      stop();
      connection.close();
    },
  };
}
