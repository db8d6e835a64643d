import { ActionIcon, Group, Menu, Tooltip } from '@mantine/core';
import { IconCamera, IconDotsVertical, IconExternalLink, IconMaximize, IconVolume, IconVolumeOff } from '@tabler/icons-react';
import { MODE_LABEL, PLAYER_MODES, type PlayerMode } from '../player/player-types';

export interface TileActionsProps {
  stream: string;
  snapshotUrl: string | undefined;
  audible: boolean;
  forced: PlayerMode | undefined;
  onFullscreen(): void;
  /** Absent where the camera is already on its own (the pop-out window). */
  onPopout?(): void;
  onToggleSound(): void;
  onForce(mode: PlayerMode | undefined): void;
}

/** Snapshot, fullscreen, pop-out, sound and the playback mode of one tile (or of a pop-out window). */
export function TileActions({ stream, snapshotUrl, audible, forced, onFullscreen, onPopout, onToggleSound, onForce }: TileActionsProps) {
  return (
    <Group gap={2} wrap="nowrap">
      <Tooltip label="Snapshot (s)">
        <ActionIcon component="a" href={snapshotUrl} download={`${stream}.jpeg`} variant="subtle" aria-label={`Snapshot of ${stream}`}>
          <IconCamera size={18} />
        </ActionIcon>
      </Tooltip>
      <Tooltip label={audible ? 'Mute (m)' : 'Unmute (m)'}>
        <ActionIcon
          variant="subtle"
          onClick={onToggleSound}
          aria-label={audible ? `Mute ${stream}` : `Unmute ${stream}`}
          aria-pressed={audible}
        >
          {audible ? <IconVolume size={18} /> : <IconVolumeOff size={18} />}
        </ActionIcon>
      </Tooltip>
      <Tooltip label="Fullscreen (f)">
        <ActionIcon variant="subtle" onClick={onFullscreen} aria-label={`Fullscreen ${stream}`}>
          <IconMaximize size={18} />
        </ActionIcon>
      </Tooltip>
      {onPopout ? (
        <Tooltip label="Open in its own window">
          <ActionIcon variant="subtle" onClick={onPopout} aria-label={`Pop out ${stream}`}>
            <IconExternalLink size={18} />
          </ActionIcon>
        </Tooltip>
      ) : null}
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <ActionIcon variant="subtle" aria-label={`Playback mode of ${stream}`}>
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
        </Menu.Dropdown>
      </Menu>
    </Group>
  );
}
