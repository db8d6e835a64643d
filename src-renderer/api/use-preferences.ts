import { useQueryClient } from '@tanstack/react-query';
import type { Preferences } from '../../src-shared/contract/preferences';
import { useApi } from './api-context';
import { serviceKey } from './service-query';
import { useServiceEvent } from './use-service-event';
import { useServiceQuery } from './use-service-query';

/** The console preferences main keeps in data_dir, refreshed when main says they changed. */
export function usePreferences() {
  const api = useApi();
  const queryClient = useQueryClient();
  useServiceEvent(api.preferences.onPreferences, (next: Preferences) => queryClient.setQueryData(serviceKey('preferences', 'get'), next));
  return useServiceQuery('preferences', 'get', undefined, { staleTime: Infinity });
}
