import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { LiveViewPreferences, Preferences } from '../../../src-shared/contract/preferences';
import { unwrap } from '../../../src-shared/contract/result';
import { useApi } from '../../api/api-context';
import { queryKeys } from '../../api/query-keys';
import { useServiceEvent } from '../../api/use-service-event';

/** The grid's layout and order as main keeps them in data_dir; changes show at once and are saved. */
export function useLivePreferences() {
  const api = useApi();
  const queryClient = useQueryClient();
  useServiceEvent(api.preferences.onPreferences, (next: Preferences) => queryClient.setQueryData(queryKeys.preferences, next));
  const preferences = useQuery({ queryKey: queryKeys.preferences, queryFn: async () => unwrap(await api.preferences.get()), staleTime: Infinity });
  const save = useMutation({
    mutationFn: async (live: LiveViewPreferences) => unwrap(await api.preferences.setLiveView(live)),
    onMutate: (live) => queryClient.setQueryData<Preferences>(queryKeys.preferences, (old) => (old ? { ...old, live } : old)),
    onSuccess: (saved) => queryClient.setQueryData(queryKeys.preferences, saved),
  });
  return { preferences, save };
}
