import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { LiveViewPreferences, Preferences } from '../../../src-shared/contract/preferences';
import { unwrap } from '../../../src-shared/contract/result';
import { useApi } from '../../api/api-context';
import { queryKeys } from '../../api/query-keys';
import { usePreferences } from '../../api/use-preferences';

/** The grid's layout and order as main keeps them in data_dir; changes show at once and are saved. */
export function useLivePreferences() {
  const api = useApi();
  const queryClient = useQueryClient();
  const preferences = usePreferences();
  const save = useMutation({
    mutationFn: async (live: LiveViewPreferences) => unwrap(await api.preferences.setLiveView(live)),
    onMutate: (live) => queryClient.setQueryData<Preferences>(queryKeys.preferences, (old) => (old ? { ...old, live } : old)),
    onSuccess: (saved) => queryClient.setQueryData(queryKeys.preferences, saved),
  });
  return { preferences, save };
}
