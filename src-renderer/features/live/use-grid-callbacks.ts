import { useMemo, useRef, type RefObject } from 'react';
import type { LiveLayout } from '@shared/contract/preferences';
import { moveTile } from './model/tile-order';
import type { PlayerMode } from './player/player-types';
import type { useLivePreferences } from './use-live-preferences';

type LivePreferences = ReturnType<typeof useLivePreferences>;

export interface GridCallbackDeps {
  order: readonly string[];
  layout: LiveLayout;
  save: LivePreferences['save'];
  force: LivePreferences['force'];
  popout(stream: string): Promise<void>;
  /** Where each tile's element is kept, for fullscreen and focus from the keyboard. */
  tiles: RefObject<Map<string, HTMLElement>>;
}

/**
 * The grid's callbacks, made once for the life of the view and reading the latest order, layout
 * and mutations when called: the same functions on every render, so memoized tiles stay put.
 */
export function useGridCallbacks(deps: GridCallbackDeps) {
  const latest = useRef(deps);
  latest.current = deps;
  return useMemo(
    () => ({
      onMove: (from: string, to: string) => {
        const { save, layout, order } = latest.current;
        save.mutate({ layout, order: moveTile(order, from, to) });
      },
      onPopout: (stream: string) => void latest.current.popout(stream),
      onForce: (stream: string, mode: PlayerMode | undefined) => latest.current.force.mutate({ stream, mode }),
      tileRef: (stream: string, element: HTMLElement | null) => {
        const tiles = latest.current.tiles.current;
        if (element) tiles.set(stream, element);
        else tiles.delete(stream);
      },
    }),
    [],
  );
}
