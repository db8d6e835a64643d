import { useState } from 'react';
import { parseRemoteStreamSource } from '@shared/contract/relays';
import { useRelayStreams, useRelays } from '@renderer/api/use-relays';
import { useMediaBase } from '../../api/use-media-base';
import { useStreams } from '../../api/use-streams';
import { LoadingLine } from '../../ui/LoadingLine';
import { ResultError } from '../../ui/ResultError';
import { RelayAwayTile } from './components/RelayAwayTile';
import { TilePlayer } from './components/TilePlayer';
import { liveTiles, tileLabel, tileOfId, type LiveTile } from './model/relay-tiles';
import { useLivePreferences } from './use-live-preferences';

/**
 * A pop-out: one camera filling its own window, sound off until asked for, with the tile's own
 * actions. It plays in the mode forced for the stream (kept by main, shared with its tile). A
 * remote relay's camera (`#/camera/relay://north/yard`) plays through the embedded relay, and
 * says so while its relay is unreachable.
 */
export function CameraView({ stream }: { stream: string }) {
  const base = useMediaBase();
  const remote = parseRemoteStreamSource(stream) !== undefined;
  const streams = useStreams();
  const relays = useRelays(remote);
  const relayStreams = useRelayStreams(remote);
  const { preferences, force } = useLivePreferences();
  const [audible, setAudible] = useState(false);
  const [element, setElement] = useState<HTMLElement | null>(null);
  const forced = preferences.data?.live.modes[stream];
  const tile: LiveTile = liveTiles(streams.data ?? [], relayStreams.data ?? [], relays.data ?? [], [stream]).find(
    (t) => t.id === stream,
  ) ?? {
    ...tileOfId(stream),
    videoCodecs: [],
  };
  const label = tileLabel(tile);
  const relay = remote ? tile.relay : undefined;
  return (
    <main ref={setElement} className="camera-window" aria-label={`Camera ${label}`}>
      <h1 className="visually-hidden">{label}</h1>
      {/* The mode is known before the first connection, so the camera is not dialed twice. */}
      {preferences.isPending ? <LoadingLine>{`Loading ${label}…`}</LoadingLine> : null}
      {preferences.isError ? <ResultError error={preferences.error} /> : null}
      {force.isError ? <ResultError error={force.error} /> : null}
      {tile.unreachable ? <RelayAwayTile tile={tile} away={tile.unreachable} relay={relay} /> : null}
      {preferences.isPending || tile.unreachable ? null : (
        <TilePlayer
          tile={tile}
          element={element}
          label={label}
          relay={relay}
          base={base}
          active
          audible={audible}
          forced={forced}
          onToggleSound={() => setAudible(!audible)}
          onForce={(mode) => force.mutate({ stream, mode })}
        />
      )}
    </main>
  );
}
