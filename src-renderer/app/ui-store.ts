import { create } from 'zustand';
import type { ConnectionState } from '../api/transport-websocket';
import { hashOf, sectionFromHash, type SectionId } from './sections';

/** UI state only (server data lives in React Query). */
export interface UiState {
  section: SectionId;
  connection: ConnectionState;
  navigate(section: SectionId): void;
  syncFromLocation(): void;
  setConnection(state: ConnectionState): void;
}

export const createUiStore = () =>
  create<UiState>((set) => ({
    section: sectionFromHash(location.hash),
    connection: 'connecting',
    navigate: (section) => {
      if (location.hash !== hashOf(section)) location.hash = hashOf(section);
      set({ section });
    },
    syncFromLocation: () => set({ section: sectionFromHash(location.hash) }),
    setConnection: (connection) => set({ connection }),
  }));

export type UiStore = ReturnType<typeof createUiStore>;
