import { Loader, Text } from '@mantine/core';
import { useState, type ReactNode } from 'react';
import { readCapabilities } from './browser-capabilities';
import { MODE_LABEL, describeFailure, type PlayerMode, type PlayerState } from './player-types';
import { usePlayer, type PlaybackStats } from './use-player';

export interface PlayerProps {
  stream: string;
  base: string | undefined;
  active: boolean;
  videoCodecs: readonly string[];
  forced?: PlayerMode;
  muted: boolean;
  /** How the stream is named to the user, where it differs from the source played ("yard on north"). */
  label?: string;
  /** Renders the caption from what the player knows. */
  caption?: (state: PlayerState, stats: PlaybackStats) => ReactNode;
}

/** The one player of the console: a video (WebRTC, MSE, HLS) or picture (MJPEG) and its state, never a blank box. */
export function Player({ stream, base, active, videoCodecs, forced, muted, label = stream, caption }: PlayerProps) {
  const [capabilities] = useState(readCapabilities);
  const [video, setVideo] = useState<HTMLVideoElement | null>(null);
  const [image, setImage] = useState<HTMLImageElement | null>(null);
  const { state, stats } = usePlayer({ base, stream, active, forced, capabilities, videoCodecs, video, image });
  const mode = state.status === 'error' || state.status === 'idle' ? undefined : state.mode;

  return (
    <div className="player">
      <div className="player-stage">
        <video
          ref={setVideo}
          className="player-media"
          muted={muted}
          autoPlay
          playsInline
          hidden={mode === 'mjpeg'}
          aria-label={`Live video of ${label}`}
        />
        <img ref={setImage} className="player-media" alt={`Live picture of ${label}`} hidden={mode !== 'mjpeg'} />
        {state.status !== 'live' ? (
          <div className="player-overlay" role="status">
            {busy(state) ? <Loader size="sm" aria-hidden /> : null}
            <span>
              {stateSentence(state)}
              {/* The relay's own sentence under the short cause: the details a support ticket needs. */}
              {state.status === 'unavailable' ? (
                <Text component="span" size="xs" display="block" opacity={0.8}>
                  {describeFailure(state.failure)}
                </Text>
              ) : null}
            </span>
          </div>
        ) : null}
      </div>
      {caption?.(state, stats)}
    </div>
  );
}

/** What the tile says about its state, in the user's words. */
function stateSentence(state: PlayerState): string {
  switch (state.status) {
    case 'idle':
      return 'Paused while not visible';
    case 'connecting':
      return state.after
        ? `Connecting (${MODE_LABEL[state.mode]}) after ${MODE_LABEL[state.after.mode]} failed: ${describeFailure(state.after.failure)}`
        : `Connecting (${MODE_LABEL[state.mode]})…`;
    case 'live':
      return 'Live';
    case 'stalled':
      return 'Stalled: no new picture';
    case 'unavailable':
      return `Source unavailable: ${state.cause}. ${state.trying ? `Trying again (${MODE_LABEL[state.mode]})…` : `Retrying in ${Math.ceil(state.inMs / 1000)} s`}`;
    case 'reconnecting':
      return `Reconnecting (${describeFailure(state.failure)}) in ${Math.ceil(state.inMs / 1000)} s`;
    case 'error':
      return `Error (${describeFailure(state.failure)}); retrying in ${Math.ceil(state.inMs / 1000)} s`;
  }
}

/** A spinner while something is on its way. */
const busy = (state: PlayerState) =>
  state.status === 'connecting' ||
  state.status === 'reconnecting' ||
  state.status === 'stalled' ||
  (state.status === 'unavailable' && state.trying);
