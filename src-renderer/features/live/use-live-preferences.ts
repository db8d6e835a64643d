import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Preferences } from '@shared/contract/preferences';
import { useApi } from '../../api/api-context';
import { callService, serviceKey } from '../../api/service-query';
import { usePreferences } from '../../api/use-preferences';
import { useServiceMutation } from '../../api/use-service-query';
import { withTileMode } from './model/tile-modes';
import type { PlayerMode } from './player/player-types';

/**
 * The grid's layout and order and the modes forced per stream, as main keeps them in data_dir;
 * changes show at once and are saved (a tile and its pop-out read the same mode).
 */
export function useLivePreferences() {
  const api = useApi();
  const queryClient = useQueryClient();
  const preferences = usePreferences();
  const showNow = (change: (old: Preferences) => Preferences) =>
    queryClient.setQueryData(serviceKey('preferences', 'get'), (old) => (old ? change(old) : old));
  const saved = (next: Preferences) => queryClient.setQueryData(serviceKey('preferences', 'get'), next);
  const save = useServiceMutation('preferences', 'setLiveView', {
    onMutate: (grid) => showNow((old) => ({ ...old, live: { ...old.live, ...grid } })),
    onSuccess: saved,
  });
  const force = useMutation({
    mutationFn: ({ stream, mode }: { stream: string; mode: PlayerMode | undefined }) =>
      callService(api, 'preferences', 'setTileMode', { stream, mode: mode ?? null }),
    onMutate: ({ stream, mode }) =>
      showNow((old) => ({ ...old, live: { ...old.live, modes: withTileMode(old.live.modes, stream, mode) } })),
    onSuccess: saved,
  });
  return { preferences, save, force };
}
