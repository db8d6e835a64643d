import Hls from 'hls.js';
import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';
import { mediaTimeOf, wallTimeOf, type PlaylistEntry } from './model/playlist-time';

export type PlaybackSpeed = 1 | 2 | 4;

export interface RecordingPlayer {
  /** Plays from wall-clock time `ms`, reading the playlist again when it does not reach that far yet. */
  playFrom(ms: number): void;
  /** The wall-clock time shown now, while a playlist is loaded. */
  wallTimeMs: number | undefined;
  playing: boolean;
  error: string | undefined;
  speed: PlaybackSpeed;
  setSpeed(speed: PlaybackSpeed): void;
}

/**
 * hls.js on the day's VOD playlist, attached to `video`. `playlistUrl(endMs)` is the playlist
 * from the start of the day to `endMs`: read when the first play asks for it, and again when a
 * later time is asked for (today's recording goes on). Times go through the playlist's own
 * program date-times, so gaps in the recording cost nothing on the player's timeline.
 */
export function useRecordingPlayer(
  video: RefObject<HTMLVideoElement | null>,
  playlistUrl: ((endMs: number) => string) | undefined,
  dayEndMs: number,
): RecordingPlayer {
  const [source, setSource] = useState<{ url: string; endMs: number } | undefined>(undefined);
  const [entries, setEntries] = useState<PlaylistEntry[]>([]);
  const [wallTimeMs, setWallTimeMs] = useState<number | undefined>(undefined);
  const [playing, setPlaying] = useState(false);
  const [error, setError] = useState<string | undefined>(undefined);
  const [speed, setSpeed] = useState<PlaybackSpeed>(1);
  const pendingSeek = useRef<number | undefined>(undefined);
  const entriesRef = useRef(entries);
  entriesRef.current = entries;

  const seek = useCallback(
    (ms: number) => {
      const element = video.current;
      const seconds = mediaTimeOf(entriesRef.current, ms);
      if (!element || seconds === undefined) return false;
      element.currentTime = seconds;
      // A muted start is allowed everywhere; the user unmutes with the player's controls.
      void element.play().catch(() => undefined);
      return true;
    },
    [video],
  );

  const playFrom = useCallback(
    (ms: number) => {
      if (!playlistUrl) return;
      if (source && ms < source.endMs && seek(ms)) return;
      const endMs = Math.min(dayEndMs, Date.now());
      // Nothing newer can be listed than what the loaded playlist reached: stay ended.
      if (source && ms >= source.endMs && endMs - source.endMs < 1_000) return;
      pendingSeek.current = ms;
      setSource({ url: playlistUrl(endMs), endMs });
    },
    [playlistUrl, source, seek, dayEndMs],
  );
  const continueAt = useRef<((ms: number) => void) | undefined>(undefined);
  continueAt.current = (ms) => {
    if (source && source.endMs < dayEndMs) playFrom(ms);
  };

  useEffect(() => {
    const element = video.current;
    if (!element || !source) return;
    setError(undefined);
    const hls = new Hls({ manifestLoadingMaxRetry: 1, levelLoadingMaxRetry: 1 });
    hls.on(Hls.Events.LEVEL_LOADED, (_event, data) => {
      const loaded = data.details.fragments.map((fragment) => ({
        start: fragment.start,
        duration: fragment.duration,
        programDateTimeMs: fragment.programDateTime ?? 0,
      }));
      entriesRef.current = loaded;
      setEntries(loaded);
      const wanted = pendingSeek.current;
      pendingSeek.current = undefined;
      if (wanted === undefined) return;
      // A time between two entries plays from the next one; after the last, nothing moves.
      const next = loaded.find((entry) => entry.programDateTimeMs + entry.duration * 1000 > wanted);
      if (next) seek(Math.max(wanted, next.programDateTimeMs));
    });
    hls.on(Hls.Events.ERROR, (_event, data) => {
      if (!data.fatal) return;
      const status = data.response?.code ? ` (HTTP ${data.response.code})` : '';
      setError(`The recording could not be played: ${data.details}${status}.`);
      hls.destroy();
    });
    hls.loadSource(source.url);
    hls.attachMedia(element);
    return () => hls.destroy();
  }, [video, source, seek]);

  useEffect(() => {
    const element = video.current;
    if (!element) return;
    element.playbackRate = speed;
    const onTime = () => setWallTimeMs(wallTimeOf(entriesRef.current, element.currentTime));
    const onPlay = () => setPlaying(true);
    const onPause = () => setPlaying(false);
    // The end of today's playlist is not the end of the recording: read it again from there.
    const onEnded = () => {
      const last = entriesRef.current.at(-1);
      if (last) continueAt.current?.(last.programDateTimeMs + last.duration * 1000);
    };
    // A new source resets the rate: keep the chosen speed.
    const onRate = () => {
      if (element.playbackRate !== speed) element.playbackRate = speed;
    };
    element.addEventListener('timeupdate', onTime);
    element.addEventListener('playing', onPlay);
    element.addEventListener('pause', onPause);
    element.addEventListener('ended', onEnded);
    element.addEventListener('loadedmetadata', onRate);
    return () => {
      element.removeEventListener('timeupdate', onTime);
      element.removeEventListener('playing', onPlay);
      element.removeEventListener('pause', onPause);
      element.removeEventListener('ended', onEnded);
      element.removeEventListener('loadedmetadata', onRate);
    };
  }, [video, speed]);

  return { playFrom, wallTimeMs, playing, error, speed, setSpeed };
}
