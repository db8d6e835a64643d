import { create } from 'zustand';
import type { ConnectionState } from '../api/transport-websocket';
import { initialConnection, nextConnection, type Connection } from './connection';
import { parseRoute, printRoute, type Route } from './routes';

/** UI state only (server data lives in React Query). */
export interface UiState {
  route: Route;
  connection: ConnectionState;
  /** The link to main with its history: since when it is down, how often it came back. */
  link: Connection;
  /** The keyboard shortcuts dialog is open (`?` or the sidebar's button, in any section). */
  shortcutsOpen: boolean;
  navigate(route: Route): void;
  syncFromLocation(): void;
  setConnection(state: ConnectionState): void;
  setShortcutsOpen(open: boolean): void;
}

export const createUiStore = () =>
  create<UiState>((set) => ({
    route: parseRoute(location.hash),
    connection: 'connecting',
    link: initialConnection,
    shortcutsOpen: false,
    navigate: (route) => {
      const hash = printRoute(route);
      if (location.hash !== hash) location.hash = hash;
      set({ route });
    },
    syncFromLocation: () => set({ route: parseRoute(location.hash) }),
    setShortcutsOpen: (shortcutsOpen) => set({ shortcutsOpen }),
    setConnection: (connection) => set((state) => ({ connection, link: nextConnection(state.link, connection, Date.now()) })),
  }));

export type UiStore = ReturnType<typeof createUiStore>;
