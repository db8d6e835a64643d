import { create } from 'zustand';

/** The live view's UI state (what is not kept by main, unlike layout, order and forced modes): selection and sound. */
export interface LiveUiState {
  selected: number;
  /** Streams whose sound is on (tiles start muted: browsers only autoplay muted video). */
  audible: Record<string, boolean>;
  helpOpen: boolean;
  select(index: number): void;
  toggleSound(stream: string): void;
  setHelpOpen(open: boolean): void;
}

export const createLiveStore = () =>
  create<LiveUiState>((set) => ({
    selected: 0,
    audible: {},
    helpOpen: false,
    select: (selected) => set({ selected }),
    toggleSound: (stream) => set((s) => ({ audible: { ...s.audible, [stream]: !s.audible[stream] } })),
    setHelpOpen: (helpOpen) => set({ helpOpen }),
  }));
