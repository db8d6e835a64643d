import type { Codec, MediaFrame } from '../relay/core/media';
import type { FrameTrack } from '../relay/media/frames/frame-consumer';
import { mp4Tracks, type Mp4Track } from '../relay/protocols/mp4/mp4-tracks';
import type { RecordingSettings } from './recordings-config';
import { metadataHeaders } from './segment-meta';
import { segmentKey } from './segment-keys';
import { createRunWriter, type RunWriter, type WriterEvent } from './segment-writer';
import type { OpenSpoolFile, Spool, SpoolEntry } from './spool';

export interface RecordingRunDeps {
  settings: RecordingSettings;
  spool: Spool;
  /** A segment is finished and safe in the spool. */
  onSpooled(entry: SpoolEntry): void;
  /** A segment could not be written to the spool (the disk is full, ...). */
  onSpoolError(error: Error): void;
}

/**
 * One run of a recording: the frames of one source connection with one set of tracks, from
 * the consumer to segment files in the spool. The source reconnecting (or coming back with
 * other codecs) ends the run; the next run starts at its first keyframe.
 */
export interface RecordingRun {
  /** Whether this frame's track is still fed by the connection and codec the run began with. */
  matches(track: FrameTrack): boolean;
  push(track: FrameTrack, frame: MediaFrame, arrivalMs: number): void;
  /** Closes the open segment; resolves once every segment of the run is in the spool. */
  end(): Promise<void>;
  /** When the last frame came (ms), to notice a source that went quiet. */
  readonly lastFrameAt: number;
}

export function createRecordingRun(tracks: readonly FrameTrack[], deps: RecordingRunDeps): RecordingRun {
  const { settings, spool } = deps;
  const began = tracks.map((t) => ({ connection: t.source.connection, codec: t.codec as Codec }));
  const written: Mp4Track[] = mp4Tracks(tracks);
  const writer: RunWriter = createRunWriter({
    tracks: written.map((t) => ({ kind: t.kind, codec: t.codec })),
    segmentMs: settings.segment,
  });
  let file: OpenSpoolFile | undefined;
  /** Finishing files one after another, so they enter the spool in order. */
  let finishing: Promise<void> = Promise.resolve();
  let lastFrameAt = Date.now();

  function apply(events: readonly WriterEvent[]): void {
    for (const event of events) {
      if (event.kind === 'open') file = spool.begin(settings.stream);
      else if (event.kind === 'data') file?.write(event.parts);
      else {
        const closing = file;
        file = undefined;
        if (!closing) continue;
        const segment = event.segment;
        const target = {
          stream: settings.stream,
          account: settings.account,
          bucket: settings.bucket,
          key: segmentKey(settings.prefix, segment.startMs),
          metadata: metadataHeaders(segment, settings.stream),
          ...segment,
        };
        finishing = finishing.then(() =>
          closing.finish(target).then(deps.onSpooled, (error: Error) => {
            void closing.abandon();
            deps.onSpoolError(error);
          }),
        );
      }
    }
  }

  return {
    get lastFrameAt() {
      return lastFrameAt;
    },
    matches: (track) => began[track.index]?.connection === track.source.connection && began[track.index]?.codec === track.codec,
    push(track, frame, arrivalMs) {
      lastFrameAt = arrivalMs;
      const output = written[track.index]!;
      // Most tracks are written as they come: no list made for each of their frames.
      if (output.asIs) return apply(writer.push(track.index, frame, arrivalMs));
      for (const converted of output.convert(frame)) apply(writer.push(track.index, converted, arrivalMs));
    },
    async end() {
      apply(writer.finish());
      await finishing;
    },
  };
}
