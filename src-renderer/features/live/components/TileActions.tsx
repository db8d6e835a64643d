import { ActionIcon, Group, Menu, Tooltip } from '@mantine/core';
import {
  IconCamera,
  IconCloudUpload,
  IconDotsVertical,
  IconExternalLink,
  IconMaximize,
  IconMovie,
  IconVolume,
  IconVolumeOff,
} from '@tabler/icons-react';
import { useState } from 'react';
import { MODE_LABEL, PLAYER_MODES, type PlayerMode } from '../player/player-types';
import { LiveToBucketDialog, type LiveToBucketKind } from './LiveToBucketDialog';

export interface TileActionsProps {
  stream: string;
  /** How the stream is named in the buttons' names, where it differs from the source played ("yard on north"). */
  label?: string;
  snapshotUrl: string | undefined;
  audible: boolean;
  forced: PlayerMode | undefined;
  onFullscreen(): void;
  /** Absent where the camera is already on its own (the pop-out window). */
  onPopout?(): void;
  onToggleSound(): void;
  onForce(mode: PlayerMode | undefined): void;
}

/**
 * Snapshot, fullscreen, pop-out, sound, the playback mode of one tile (or of a pop-out window),
 * and its snapshot or last seconds sent into a bucket.
 */
export function TileActions({
  stream,
  label = stream,
  snapshotUrl,
  audible,
  forced,
  onFullscreen,
  onPopout,
  onToggleSound,
  onForce,
}: TileActionsProps) {
  const [toBucket, setToBucket] = useState<LiveToBucketKind | undefined>();
  return (
    <Group gap={2} wrap="nowrap">
      <Tooltip label="Snapshot (s)">
        <ActionIcon
          component="a"
          href={snapshotUrl}
          download={`${label.replace(/ /g, '_')}.jpeg`}
          variant="subtle"
          aria-label={`Snapshot of ${label}`}
        >
          <IconCamera size={18} />
        </ActionIcon>
      </Tooltip>
      <Tooltip label={audible ? 'Mute (m)' : 'Unmute (m)'}>
        <ActionIcon
          variant="subtle"
          onClick={onToggleSound}
          aria-label={audible ? `Mute ${label}` : `Unmute ${label}`}
          aria-pressed={audible}
        >
          {audible ? <IconVolume size={18} /> : <IconVolumeOff size={18} />}
        </ActionIcon>
      </Tooltip>
      <Tooltip label="Fullscreen (f)">
        <ActionIcon variant="subtle" onClick={onFullscreen} aria-label={`Fullscreen ${label}`}>
          <IconMaximize size={18} />
        </ActionIcon>
      </Tooltip>
      {onPopout ? (
        <Tooltip label="Open in its own window">
          <ActionIcon variant="subtle" onClick={onPopout} aria-label={`Pop out ${label}`}>
            <IconExternalLink size={18} />
          </ActionIcon>
        </Tooltip>
      ) : null}
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <ActionIcon variant="subtle" aria-label={`Menu of ${label}`}>
            <IconDotsVertical size={18} />
          </ActionIcon>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Label>Playback mode</Menu.Label>
          <Menu.Item onClick={() => onForce(undefined)} rightSection={forced === undefined ? '✓' : null}>
            Automatic (WebRTC → MSE → HLS → MJPEG)
          </Menu.Item>
          {PLAYER_MODES.map((mode) => (
            <Menu.Item key={mode} onClick={() => onForce(mode)} rightSection={forced === mode ? '✓' : null}>
              {MODE_LABEL[mode]} only
            </Menu.Item>
          ))}
          <Menu.Divider />
          <Menu.Label>Into a bucket</Menu.Label>
          <Menu.Item leftSection={<IconCloudUpload size={16} />} onClick={() => setToBucket('snapshot')}>
            Snapshot to bucket…
          </Menu.Item>
          <Menu.Item leftSection={<IconMovie size={16} />} onClick={() => setToBucket('clip')}>
            Clip the last N seconds to bucket…
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
      {toBucket ? <LiveToBucketDialog stream={stream} kind={toBucket} onClose={() => setToBucket(undefined)} /> : null}
    </Group>
  );
}
