import { Button } from '@mantine/core';
import { useState } from 'react';
import { useMediaBase } from '../../api/use-media-base';
import { useStreams } from '../../api/use-streams';
import { TileCaption } from './components/TileCaption';
import { Player } from './player/Player';
import { videoCodecsOf } from './video-codecs';

/** A pop-out: one camera filling its own window, sound off until asked for. */
export function CameraView({ stream }: { stream: string }) {
  const base = useMediaBase();
  const streams = useStreams();
  const [audible, setAudible] = useState(false);
  return (
    <main className="camera-window" aria-label={`Camera ${stream}`}>
      <h1 className="visually-hidden">{stream}</h1>
      <Player
        stream={stream}
        base={base}
        active
        videoCodecs={videoCodecsOf(streams.data ?? [], stream)}
        muted={!audible}
        caption={(state, stats) => (
          <TileCaption
            stream={stream}
            state={state}
            stats={stats}
            trailing={
              <Button size="xs" variant="default" onClick={() => setAudible(!audible)} aria-pressed={audible}>
                {audible ? 'Mute' : 'Unmute'}
              </Button>
            }
          />
        )}
      />
    </main>
  );
}
