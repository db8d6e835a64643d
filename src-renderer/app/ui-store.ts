import { create } from 'zustand';
import type { ConnectionState } from '../api/transport-websocket';
import { parseRoute, printRoute, type Route } from './routes';

/** UI state only (server data lives in React Query). */
export interface UiState {
  route: Route;
  connection: ConnectionState;
  navigate(route: Route): void;
  syncFromLocation(): void;
  setConnection(state: ConnectionState): void;
}

export const createUiStore = () =>
  create<UiState>((set) => ({
    route: parseRoute(location.hash),
    connection: 'connecting',
    navigate: (route) => {
      const hash = printRoute(route);
      if (location.hash !== hash) location.hash = hash;
      set({ route });
    },
    syncFromLocation: () => set({ route: parseRoute(location.hash) }),
    setConnection: (connection) => set({ connection }),
  }));

export type UiStore = ReturnType<typeof createUiStore>;
