import { Badge, Group, Text, Tooltip } from '@mantine/core';
import type { ReactNode } from 'react';
import { formatBitrate, formatResolution } from '../model/format-caption';
import { MODE_LABEL, describeFailure, type PlayerState } from '../player/player-types';
import type { PlaybackStats } from '../player/use-player';

const STATE_COLOR = {
  idle: 'gray',
  connecting: 'yellow',
  live: 'green',
  stalled: 'orange',
  reconnecting: 'orange',
  unavailable: 'red',
  error: 'red',
} as const;
const STATE_LABEL = {
  idle: 'paused',
  connecting: 'connecting',
  live: 'live',
  stalled: 'stalled',
  reconnecting: 'reconnecting',
  unavailable: 'source unavailable',
  error: 'error',
} as const;

/** Stream name, mode, size, frame rate, bitrate and state under a tile; `leading`/`trailing` sit beside the name. */
export function TileCaption({
  stream,
  relay,
  state,
  stats,
  status,
  leading,
  trailing,
}: {
  stream: string;
  /** The relay the stream comes from, shown once remote relays exist. */
  relay?: string;
  state: PlayerState;
  stats: PlaybackStats;
  /** A state of the tile the player does not know of (its relay is unreachable), shown instead of the player's. */
  status?: { label: string; color: string };
  leading?: ReactNode;
  trailing?: ReactNode;
}) {
  const mode = 'mode' in state ? MODE_LABEL[state.mode] : undefined;
  const live = state.status === 'live';
  const fellBack =
    'after' in state && state.after ? `${MODE_LABEL[state.after.mode]} failed: ${describeFailure(state.after.failure)}` : undefined;
  const facts = [
    formatResolution(stats.width, stats.height),
    live && stats.fps !== undefined ? `${stats.fps} fps` : undefined,
    live ? formatBitrate(stats.bitrate) : undefined,
  ].filter(Boolean);
  return (
    <footer className="tile-caption">
      <Group gap={4} wrap="nowrap">
        {leading}
        <Text fw={600} size="sm" truncate="end" className="tile-name">
          {stream}
        </Text>
        {relay ? (
          <Badge size="sm" variant="outline" color="gray" tt="none" className="tile-relay" aria-label={`relay ${relay}`}>
            {relay}
          </Badge>
        ) : null}
        {trailing}
      </Group>
      <Group gap={6} wrap="nowrap" className="tile-facts">
        {mode ? (
          <Badge size="sm" variant="light" aria-label={`mode ${mode}`}>
            {mode}
          </Badge>
        ) : null}
        <Badge
          size="sm"
          color={status?.color ?? STATE_COLOR[state.status]}
          variant="dot"
          aria-label={`state ${status?.label ?? STATE_LABEL[state.status]}`}
        >
          {status?.label ?? STATE_LABEL[state.status]}
        </Badge>
        <Text size="xs" c="dimmed" truncate="end">
          {facts.join(' · ')}
        </Text>
        {fellBack && live ? (
          <Tooltip label={fellBack}>
            <Badge size="sm" color="orange" variant="light" tabIndex={0} aria-label={`fell back because ${fellBack}`}>
              fallback
            </Badge>
          </Tooltip>
        ) : null}
      </Group>
    </footer>
  );
}
