import { Button, Group, SegmentedControl, Text } from '@mantine/core';
import { IconPlayerSkipBack, IconPlayerSkipForward } from '@tabler/icons-react';
import type { RefObject } from 'react';
import { clockOf } from '../model/day';
import type { PlaybackSpeed, RecordingPlayer } from '../use-recording-player';

const SPEEDS = ['1', '2', '4'] as const;

/** The recording's video (its own controls scrub), the speed, the previous and next spans, and the time shown. */
export function PlayerPanel({
  video,
  player,
  onNeighbour,
}: {
  video: RefObject<HTMLVideoElement | null>;
  player: RecordingPlayer;
  onNeighbour(direction: 1 | -1): void;
}) {
  return (
    <section className="panel rec-player" aria-label="Playback">
      <video ref={video} className="rec-video" controls muted playsInline data-testid="recording-video" aria-label="Recording" />
      {player.error ? (
        <Text role="alert" c="var(--mantine-color-error)" size="sm">
          {player.error}
        </Text>
      ) : null}
      <Group gap="sm" mt="xs" wrap="wrap">
        <Button
          variant="default"
          size="xs"
          leftSection={<IconPlayerSkipBack size={14} aria-hidden="true" />}
          onClick={() => onNeighbour(-1)}
        >
          Previous span
        </Button>
        <Button
          variant="default"
          size="xs"
          rightSection={<IconPlayerSkipForward size={14} aria-hidden="true" />}
          onClick={() => onNeighbour(1)}
        >
          Next span
        </Button>
        <SegmentedControl
          size="xs"
          aria-label="Speed"
          value={String(player.speed)}
          onChange={(value) => player.setSpeed(Number(value) as PlaybackSpeed)}
          data={SPEEDS.map((s) => ({ value: s, label: `${s}×` }))}
        />
        <Text size="sm" data-testid="playing-at">
          {player.wallTimeMs !== undefined
            ? `${player.playing ? 'Playing' : 'Paused at'} ${clockOf(player.wallTimeMs)}`
            : 'Click the timeline to play'}
        </Text>
      </Group>
    </section>
  );
}
