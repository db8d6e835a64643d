import { useState } from 'react';
import { useMediaBase } from '../../api/use-media-base';
import { useStreams } from '../../api/use-streams';
import { LoadingLine } from '../../ui/LoadingLine';
import { ResultError } from '../../ui/ResultError';
import { snapshotUrl } from './components/Tile';
import { TileActions } from './components/TileActions';
import { TileCaption } from './components/TileCaption';
import { Player } from './player/Player';
import { useLivePreferences } from './use-live-preferences';
import { videoCodecsOf } from './video-codecs';

/**
 * A pop-out: one camera filling its own window, sound off until asked for, with the tile's own
 * actions. It plays in the mode forced for the stream (kept by main, shared with its tile).
 */
export function CameraView({ stream }: { stream: string }) {
  const base = useMediaBase();
  const streams = useStreams();
  const { preferences, force } = useLivePreferences();
  const [audible, setAudible] = useState(false);
  const [element, setElement] = useState<HTMLElement | null>(null);
  const forced = preferences.data?.live.modes[stream];
  return (
    <main ref={setElement} className="camera-window" aria-label={`Camera ${stream}`}>
      <h1 className="visually-hidden">{stream}</h1>
      {/* The mode is known before the first connection, so the camera is not dialed twice. */}
      {preferences.isPending ? <LoadingLine>{`Loading ${stream}…`}</LoadingLine> : null}
      {preferences.isError ? <ResultError error={preferences.error} /> : null}
      {force.isError ? <ResultError error={force.error} /> : null}
      {preferences.isPending ? null : (
        <Player
          stream={stream}
          base={base}
          active
          videoCodecs={videoCodecsOf(streams.data ?? [], stream)}
          forced={forced}
          muted={!audible}
          caption={(state, stats) => (
            <TileCaption
              stream={stream}
              state={state}
              stats={stats}
              trailing={
                <TileActions
                  stream={stream}
                  snapshotUrl={snapshotUrl(base, stream)}
                  audible={audible}
                  forced={forced}
                  onFullscreen={() => void element?.requestFullscreen()}
                  onToggleSound={() => setAudible(!audible)}
                  onForce={(mode) => force.mutate({ stream, mode })}
                />
              }
            />
          )}
        />
      )}
    </main>
  );
}
