import { ContractFailure } from '@shared/contract/result';
import type { MediaFrame } from '../relay/core/media';
import type { MediaRequest } from '../relay/core/negotiation';
import { createFrameConsumer, type FrameTrack } from '../relay/media/frames/frame-consumer';
import type { RelayStreams } from '../relay/relay-capability';
import { mp4Tracks } from '../relay/protocols/mp4/mp4-tracks';
import { createRunWriter } from './segment-writer';

/** The GOP cache holds video only (audio is not cached): the memory's clip is its pictures. */
const BUFFER_REQUESTS: MediaRequest[] = [{ kind: 'video', codecs: ['H264', 'H265'] }];

/** One MP4 of a stream, with its media length. */
export interface MadeClip {
  bytes: Uint8Array;
  seconds: number;
}

/** Longer than any GOP: the memory's frames stay one segment. */
const ONE_SEGMENT_MS = 24 * 3_600_000;

/**
 * What the relay holds of a stream in memory, as one MP4: the GOP cache (the frames since the
 * last keyframe), which a new consumer gets at once when it attaches; the consumer leaves as
 * soon as it has them. Undefined when nothing is cached (no source connected, or its first
 * keyframe has not come). Made by the relay's muxer, as recordings are: no transcoding.
 */
export async function memoryClip(relay: RelayStreams, stream: string): Promise<MadeClip | undefined> {
  const found = relay.streams.get(stream);
  if (!found) throw new ContractFailure('not_found', `there is no stream ${stream}`);
  const frames: Array<{ track: FrameTrack; frame: MediaFrame }> = [];
  const consumer = createFrameConsumer({
    requests: BUFFER_REQUESTS,
    label: { format_name: 'clip', protocol: 'internal' },
    onFrame: (track, frame) => void frames.push({ track, frame }),
    onClose: () => undefined,
  });
  const untrack = relay.tasks.add('consumer', `clip ${stream}`);
  try {
    // The cached GOP is handed over while the consumer attaches: what came by then is the memory.
    await found.addConsumer(consumer);
  } catch (error) {
    throw new ContractFailure('unavailable', `stream ${stream} has no source to clip: ${(error as Error).message}`);
  } finally {
    found.removeConsumer(consumer);
    untrack();
  }
  if (frames.length === 0) return undefined;
  return muxFrames(consumer.tracks, frames);
}

/** Frames of one connection into one fragmented MP4 of the relay's muxer, from its first keyframe. */
function muxFrames(tracks: readonly FrameTrack[], frames: ReadonlyArray<{ track: FrameTrack; frame: MediaFrame }>): MadeClip | undefined {
  const written = mp4Tracks(tracks);
  const writer = createRunWriter({ tracks: written.map((t) => ({ kind: t.kind, codec: t.codec })), segmentMs: ONE_SEGMENT_MS });
  const chunks: Uint8Array[] = [];
  let seconds: number | undefined;
  const now = Date.now();
  const take = (events: ReturnType<typeof writer.push>) => {
    for (const event of events) {
      if (event.kind === 'data') chunks.push(...event.parts);
      if (event.kind === 'close') seconds = event.segment.durationMs / 1000;
    }
  };
  for (const { track, frame } of frames) {
    for (const converted of written[track.index]!.convert(frame)) take(writer.push(track.index, converted, now));
  }
  take(writer.finish());
  if (seconds === undefined || chunks.length === 0) return undefined;
  return { bytes: Buffer.concat(chunks), seconds };
}
