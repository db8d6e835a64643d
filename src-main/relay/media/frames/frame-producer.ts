import { randomInt } from 'node:crypto';
import type { Codec, Media, MediaFrame, MediaKind } from '../../core/media';
import type { ConnectionInfo, ProducerConnection } from '../../core/producer';
import type { RtpPacket } from '../../core/rtp-packet';
import { fromAvcc } from '../codecs/h264/nal';
import { packetizeH264 } from '../codecs/h264/rtp-h264';
import { packetizeH265 } from '../codecs/h265/rtp-h265';
import { packetizeAac } from '../codecs/aac/rtp-aac';

interface FrameProducerTrack {
  kind: MediaKind;
  codec: Codec;
}

/** Packetizes one frame; JPEG and others join by passing their own. */
export type FramePacketizer = (frame: MediaFrame) => Array<{ payload: Uint8Array; marker: boolean }>;

export interface FrameProducerOptions {
  tracks: FrameProducerTrack[];
  /** go2rtc's stats fields: format_name (flv, mpegts, mjpeg), protocol (http), remote_addr, url. */
  label: ConnectionInfo;
  /** Packetizers for codecs this module does not know (JPEG). */
  packetizers?: Record<string, FramePacketizer>;
}

export interface FrameProducer {
  readonly connection: ProducerConnection;
  /** Hands a demuxed frame to the relay; frames before `start` are dropped (nobody watches yet). */
  push(trackIndex: number, frame: MediaFrame): void;
  /** The upload or the source ended; `error` when it ended badly. */
  end(error?: Error): void;
}

function builtInPacketizer(codec: Codec): FramePacketizer | undefined {
  switch (codec.name) {
    case 'H264':
      return (frame) => packetizeH264(fromAvcc(frame.data));
    case 'H265':
      return (frame) => packetizeH265(fromAvcc(frame.data));
    case 'MPEG4-GENERIC':
      return (frame) => [{ payload: packetizeAac(frame.data), marker: true }];
    case 'OPUS':
    case 'PCMA':
    case 'PCMU':
    case 'L16':
      return (frame) => [{ payload: frame.data, marker: true }];
    default:
      return undefined;
  }
}

/**
 * A producer fed with frames (a POSTed FLV/MPEG-TS/MJPEG upload, an HTTP source): each frame is
 * packetized into RTP with the track's own sequence numbers and SSRC, so to the relay it is a
 * source like any camera.
 */
export function createFrameProducer(options: FrameProducerOptions): FrameProducer {
  const medias: Media[] = options.tracks.map((t) => ({ kind: t.kind, direction: 'recvonly', codecs: [t.codec] }));
  const packetizers = options.tracks.map((t) => {
    const packetize = options.packetizers?.[t.codec.name] ?? builtInPacketizer(t.codec);
    if (!packetize) throw new Error(`no RTP packetizer for ${t.codec.name}`);
    return packetize;
  });
  const sequence = options.tracks.map(() => randomInt(0, 0x10000));
  const ssrc = options.tracks.map(() => randomInt(1, 0xffffffff));
  let sink: ((mediaIndex: number, packet: RtpPacket) => void) | undefined;
  let bytes = 0;
  let resolveClosed!: (error: Error | undefined) => void;
  const closed = new Promise<Error | undefined>((resolve) => (resolveClosed = resolve));
  let ended = false;

  const connection: ProducerConnection = {
    medias,
    closed,
    start(next) {
      sink = next;
    },
    close() {
      if (ended) return;
      ended = true;
      resolveClosed(undefined);
    },
    info: () => ({ ...options.label, medias: medias.map((m) => `${m.kind}, recvonly, ${m.codecs[0]!.name}`), bytes_recv: bytes }),
  };

  return {
    connection,
    push(trackIndex, frame) {
      bytes += frame.data.length;
      if (!sink || ended) return;
      const codec = options.tracks[trackIndex]!.codec;
      for (const piece of packetizers[trackIndex]!(frame)) {
        sequence[trackIndex] = (sequence[trackIndex]! + 1) & 0xffff;
        sink(trackIndex, {
          marker: piece.marker,
          payloadType: codec.payloadType,
          sequenceNumber: sequence[trackIndex]!,
          timestamp: frame.timestamp >>> 0,
          ssrc: ssrc[trackIndex]!,
          payload: piece.payload,
        });
      }
    },
    end(error) {
      if (ended) return;
      ended = true;
      resolveClosed(error);
    },
  };
}
