import { RECORDINGS_TICKET_PATH, type recordingsService } from '../../src-shared/contract/recordings';
import type { ServiceImpl } from '../../src-shared/contract/define-service';
import { ContractFailure } from '../../src-shared/contract/result';
import type { PlaybackTickets } from './playback-tickets';
import type { RecordingSettings } from './recordings-config';
import type { SegmentCatalog, SegmentPlace } from './segment-catalog';
import { usagePerDay } from './usage-per-day';

interface ReadsDeps {
  settingsOf(stream: string): RecordingSettings | undefined;
  placeOf(settings: RecordingSettings): Promise<SegmentPlace>;
  catalog: SegmentCatalog;
  tickets: PlaybackTickets;
}

/** The recordings service's reads from the bucket: a range's segments, the bytes per day, and the console's playback tickets. */
export function recordingsReads(deps: ReadsDeps): Pick<ServiceImpl<typeof recordingsService>, 'list' | 'usage' | 'playbackTicket'> {
  const recordingOf = (stream: string) => {
    const settings = deps.settingsOf(stream);
    if (!settings) throw new ContractFailure('not_found', `stream ${stream} has no recordings: add it under recordings: in the config`);
    return settings;
  };
  return {
    list: async ({ stream, startMs, endMs }) => {
      const segments = await deps.catalog.list(await deps.placeOf(recordingOf(stream)), { startMs, endMs });
      return {
        segments: segments.map((s) => ({
          key: s.key,
          startMs: s.startMs,
          endMs: s.endMs,
          durationMs: s.durationMs,
          bytes: s.bytes,
          codecs: s.codecs,
        })),
      };
    },
    playbackTicket: async ({ stream }) => {
      recordingOf(stream);
      const { ticket, expiresAtMs } = deps.tickets.issue(stream);
      return { path: `${RECORDINGS_TICKET_PATH}${ticket}/`, expiresAtMs };
    },
    usage: async ({ stream, dayStartsMs }) => {
      const range = { startMs: dayStartsMs[0]!, endMs: dayStartsMs[dayStartsMs.length - 1]! };
      const segments = await deps.catalog.list(await deps.placeOf(recordingOf(stream)), range);
      return { days: usagePerDay(segments, dayStartsMs) };
    },
  };
}
