import { create } from 'zustand';
import { ALL_RELAYS, type RelayFilter } from './model/relay-tiles';

/** The live view's UI state (what is not kept by main, unlike layout, order and forced modes): selection, sound, relay filter. */
export interface LiveUiState {
  selected: number;
  /** Streams whose sound is on (tiles start muted: browsers only autoplay muted video). */
  audible: Record<string, boolean>;
  helpOpen: boolean;
  /** Which relay's tiles are shown (`all`, `local` or a remote relay's name). */
  relayFilter: RelayFilter;
  /** Tiles in one group per relay rather than one grid. */
  grouped: boolean;
  select(index: number): void;
  toggleSound(stream: string): void;
  setHelpOpen(open: boolean): void;
  setRelayFilter(filter: RelayFilter): void;
  setGrouped(grouped: boolean): void;
}

export const createLiveStore = () =>
  create<LiveUiState>((set) => ({
    selected: 0,
    audible: {},
    helpOpen: false,
    relayFilter: ALL_RELAYS,
    grouped: false,
    select: (selected) => set({ selected }),
    toggleSound: (stream) => set((s) => ({ audible: { ...s.audible, [stream]: !s.audible[stream] } })),
    setHelpOpen: (helpOpen) => set({ helpOpen }),
    setRelayFilter: (relayFilter) => set({ relayFilter, selected: 0 }),
    setGrouped: (grouped) => set({ grouped, selected: 0 }),
  }));
