import { Button, Group, SegmentedControl, Stack, Text } from '@mantine/core';
import { IconChevronLeft, IconChevronRight } from '@tabler/icons-react';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { RecordingStatus } from '@shared/contract/recordings';
import { printRoute } from '../../app/routes';
import { QueryState } from '../../ui/QueryState';
import { DayTimeline } from './components/DayTimeline';
import { ExportPanel } from './components/ExportPanel';
import { PlayerPanel } from './components/PlayerPanel';
import { StatusLine } from './components/StatusLine';
import { UsageChart } from './components/UsageChart';
import { dayKeyOf, daySpan, shiftDay } from './model/day';
import { meetingsOf } from './model/meetings';
import { defaultRange } from './model/range';
import { neighbourSpan, playableFrom, spansOf, viewWindow, type Span } from './model/timeline';
import { recordingUrl, useDayMeetings, useDaySegments, usePlaybackBase } from './use-recordings';
import { useRecordingPlayer } from './use-recording-player';

const ZOOMS = [
  { value: String(24 * 3_600_000), label: 'Day' },
  { value: String(6 * 3_600_000), label: '6 h' },
  { value: String(3_600_000), label: '1 h' },
  { value: String(10 * 60_000), label: '10 min' },
];

/** One camera's day: its status, the day's timeline, the player, the export and the storage it takes. */
export function CameraDay({ status, day }: { status: RecordingStatus; day: string }) {
  const { stream } = status;
  const span = useMemo(() => daySpan(day), [day]);
  const segments = useDaySegments(stream, day);
  const spans = useMemo(() => spansOf(segments.data?.segments ?? []), [segments.data]);
  const { synced, events } = useDayMeetings(day);
  const meetings = useMemo(() => (synced && events.data ? meetingsOf(events.data, stream) : undefined), [synced, events.data, stream]);
  const base = usePlaybackBase(stream);

  const [cursor, setCursor] = useState<number | undefined>(undefined);
  const [centre, setCentre] = useState<number | undefined>(undefined);
  const [zoom, setZoom] = useState(ZOOMS[0]!.value);
  const [range, setRange] = useState<Span | undefined>(undefined);
  // Until the user moves it, the cursor sits at the start of the day's last recording.
  const cursorMs = cursor ?? spans.at(-1)?.startMs ?? span.startMs;
  const view = viewWindow(span, centre ?? cursorMs, Number(zoom));
  const exportRange = range ?? defaultRange(spans, cursorMs);

  const moveCursor = useCallback(
    (ms: number) => {
      setCursor(ms);
      // The view follows the cursor only when it leaves it, so a click does not slide the timeline.
      if (ms < view.startMs || ms > view.endMs) setCentre(ms);
    },
    [view.startMs, view.endMs],
  );

  const video = useRef<HTMLVideoElement>(null);
  const playlistUrl = useMemo(
    () => (base ? (endMs: number) => recordingUrl(base, 'm3u8', stream, span.startMs, endMs) : undefined),
    [base, stream, span.startMs],
  );
  const player = useRecordingPlayer(video, playlistUrl, span.endMs);
  const play = (ms: number) => {
    const playable = playableFrom(spans, ms);
    if (!playable) return;
    moveCursor(playable.fromMs);
    player.playFrom(playable.fromMs);
  };
  // The cursor follows the time the player shows; only a new time moves it, not a new view.
  const follow = useRef(moveCursor);
  follow.current = moveCursor;
  const { wallTimeMs } = player;
  useEffect(() => {
    if (wallTimeMs !== undefined) follow.current(wallTimeMs);
  }, [wallTimeMs]);

  return (
    <Stack gap="md">
      <StatusLine status={status} />
      <Group justify="space-between" wrap="wrap">
        <Group gap="xs">
          <Button
            component="a"
            variant="default"
            size="xs"
            href={printRoute({ section: 'recordings', stream, day: shiftDay(day, -1) })}
            leftSection={<IconChevronLeft size={14} aria-hidden="true" />}
          >
            Previous day
          </Button>
          <Text fw={600} data-testid="recordings-day">
            {new Date(span.startMs).toLocaleDateString(undefined, { weekday: 'long', year: 'numeric', month: 'long', day: 'numeric' })}
          </Text>
          <Button
            component="a"
            variant="default"
            size="xs"
            href={printRoute({ section: 'recordings', stream, day: shiftDay(day, 1) })}
            rightSection={<IconChevronRight size={14} aria-hidden="true" />}
          >
            Next day
          </Button>
          {day !== dayKeyOf(Date.now()) ? (
            <Button component="a" variant="subtle" size="xs" href={printRoute({ section: 'recordings', stream })}>
              Today
            </Button>
          ) : null}
        </Group>
        <SegmentedControl
          size="xs"
          aria-label="Zoom"
          value={zoom}
          onChange={(value) => {
            setZoom(value);
            setCentre(cursorMs);
          }}
          data={ZOOMS}
        />
      </Group>
      <QueryState query={segments} loading="Reading the day's recordings…" errorTitle="The recordings could not be listed">
        {() => (
          <section className="panel" aria-label="Timeline">
            {spans.length === 0 ? (
              <Text size="sm" className="muted" mb="xs" data-testid="nothing-recorded">
                Nothing of {stream} was recorded on this day.
              </Text>
            ) : null}
            {!synced ? (
              <Text size="xs" className="muted" mb="xs">
                Meetings show above the recordings once the calendar is synced (Calendar section).
              </Text>
            ) : null}
            <DayTimeline
              view={view}
              spans={spans}
              meetings={meetings}
              cursorMs={cursorMs}
              range={exportRange}
              onCursor={moveCursor}
              onPlay={play}
            />
          </section>
        )}
      </QueryState>
      <PlayerPanel
        video={video}
        player={player}
        onNeighbour={(direction) => {
          const next = neighbourSpan(spans, player.wallTimeMs ?? cursorMs, direction);
          if (next) play(next.startMs);
        }}
      />
      <ExportPanel
        day={day}
        stream={stream}
        range={exportRange}
        spans={spans}
        cursorMs={cursorMs}
        onRange={setRange}
        downloadUrl={base ? (r) => recordingUrl(base, 'mp4', stream, r.startMs, r.endMs) : undefined}
      />
      <UsageChart stream={stream} lastDay={day} />
    </Stack>
  );
}
