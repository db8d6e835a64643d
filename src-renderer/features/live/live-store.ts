import { create } from 'zustand';
import type { PlayerMode } from './player/player-types';

/** The live view's UI state (what is not kept by main): selection, per-tile mode and sound. */
export interface LiveUiState {
  selected: number;
  /** Modes the user forced per stream; absent: automatic. */
  forced: Record<string, PlayerMode | undefined>;
  /** Streams whose sound is on (tiles start muted: browsers only autoplay muted video). */
  audible: Record<string, boolean>;
  helpOpen: boolean;
  select(index: number): void;
  force(stream: string, mode: PlayerMode | undefined): void;
  toggleSound(stream: string): void;
  setHelpOpen(open: boolean): void;
}

export const createLiveStore = () =>
  create<LiveUiState>((set) => ({
    selected: 0,
    forced: {},
    audible: {},
    helpOpen: false,
    select: (selected) => set({ selected }),
    force: (stream, mode) => set((s) => ({ forced: { ...s.forced, [stream]: mode } })),
    toggleSound: (stream) => set((s) => ({ audible: { ...s.audible, [stream]: !s.audible[stream] } })),
    setHelpOpen: (helpOpen) => set({ helpOpen }),
  }));

export type LiveStore = ReturnType<typeof createLiveStore>;
