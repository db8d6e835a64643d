import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { RelayInfo, RelayStreams } from '@shared/contract/relays';
import { keepLastKnown } from './last-known-relay-streams';
import { useApi } from './api-context';
import { callService, serviceKey } from './service-query';
import { useServiceEvent } from './use-service-event';
import { useServiceQuery } from './use-service-query';

/**
 * The remote relays with their state and health: read once, then kept fresh by main's
 * `onRelays`, so a relay that goes away or comes back shows without a reload. `enabled: false`
 * reads nothing (a pop-out of a local camera).
 */
export function useRelays(enabled = true) {
  const api = useApi();
  const queryClient = useQueryClient();
  useServiceEvent(api.relays.onRelays, (list: RelayInfo[]) => queryClient.setQueryData(serviceKey('relays', 'list'), list));
  return useServiceQuery('relays', 'list', undefined, { staleTime: Infinity, enabled });
}

/**
 * Every remote relay's streams, kept fresh by `onStreams`. A relay that drops out of the answer
 * while it is unreachable keeps its last known streams here, so its tiles and rows stay and say
 * why instead of vanishing.
 */
export function useRelayStreams(enabled = true) {
  const api = useApi();
  const queryClient = useQueryClient();
  const key = serviceKey('relays', 'streams');
  const merge = (next: RelayStreams[]) =>
    keepLastKnown(queryClient.getQueryData(key) ?? [], next, queryClient.getQueryData(serviceKey('relays', 'list')) ?? []);
  useServiceEvent(api.relays.onStreams, (next: RelayStreams[]) => queryClient.setQueryData(key, merge(next)));
  return useQuery({
    queryKey: key,
    queryFn: async () => merge(await callService(api, 'relays', 'streams')),
    staleTime: Infinity,
    enabled,
  });
}
