import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { Preferences } from '../../src-shared/contract/preferences';
import { unwrap } from '../../src-shared/contract/result';
import { useApi } from './api-context';
import { queryKeys } from './query-keys';
import { useServiceEvent } from './use-service-event';

/** The console preferences main keeps in data_dir, refreshed when main says they changed. */
export function usePreferences() {
  const api = useApi();
  const queryClient = useQueryClient();
  useServiceEvent(api.preferences.onPreferences, (next: Preferences) => queryClient.setQueryData(queryKeys.preferences, next));
  return useQuery({ queryKey: queryKeys.preferences, queryFn: async () => unwrap(await api.preferences.get()), staleTime: Infinity });
}
