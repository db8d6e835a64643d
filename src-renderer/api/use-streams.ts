import { useQueryClient } from '@tanstack/react-query';
import type { StreamSummary } from '../../src-shared/contract/relay';
import { useApi } from './api-context';
import { serviceKey } from './service-query';
import { useServiceEvent } from './use-service-event';
import { useServiceQuery } from './use-service-query';

/** The relay's streams with live stats: read once, then kept fresh by main's `onStreams` event. */
export function useStreams() {
  const api = useApi();
  const queryClient = useQueryClient();
  useServiceEvent(api.relay.onStreams, (list: StreamSummary[]) => queryClient.setQueryData(serviceKey('relay', 'listStreams'), list));
  return useServiceQuery('relay', 'listStreams', undefined, { staleTime: Infinity });
}
