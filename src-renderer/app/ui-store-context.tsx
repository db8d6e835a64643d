import { createContext, useContext, type ReactNode } from 'react';
import { useStore } from 'zustand';
import type { UiState, UiStore } from './ui-store';

const UiStoreContext = createContext<UiStore | undefined>(undefined);

export function UiStoreProvider({ store, children }: { store: UiStore; children: ReactNode }) {
  return <UiStoreContext.Provider value={store}>{children}</UiStoreContext.Provider>;
}

export function useUi<T>(selector: (state: UiState) => T): T {
  const store = useContext(UiStoreContext);
  if (!store) throw new Error('useUi outside UiStoreProvider');
  return useStore(store, selector);
}
