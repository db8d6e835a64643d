import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { StreamSummary } from '../../src-shared/contract/relay';
import { unwrap } from '../../src-shared/contract/result';
import { useApi } from './api-context';
import { queryKeys } from './query-keys';
import { useServiceEvent } from './use-service-event';

/** The relay's streams with live stats: read once, then kept fresh by main's `onStreams` event. */
export function useStreams() {
  const api = useApi();
  const queryClient = useQueryClient();
  useServiceEvent(api.relay.onStreams, (list: StreamSummary[]) => queryClient.setQueryData(queryKeys.streams, list));
  return useQuery({ queryKey: queryKeys.streams, queryFn: async () => unwrap(await api.relay.listStreams()), staleTime: Infinity });
}
