import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ProbeResult } from '@shared/contract/relay';
import { LOCAL_RELAY } from '@shared/contract/relays';
import { useApi } from '../../api/api-context';
import { callService, serviceFilter } from '../../api/service-query';
import { useServiceQuery } from '../../api/use-service-query';

/** A stream to add, or to change (`newName` renames it), with its sources in order, on the embedded relay or a remote one. */
export interface StreamInput {
  relay: string;
  name: string;
  newName?: string;
  sources: string[];
}

/**
 * Add, edit, delete and probe, on the embedded relay or through a remote relay's API (main makes
 * that call): each refreshes the lists at once instead of waiting for the next event.
 */
export function useStreamActions() {
  const api = useApi();
  const queryClient = useQueryClient();
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries(serviceFilter('relay', 'listStreams')),
      queryClient.invalidateQueries(serviceFilter('relays', 'streams')),
    ]);
  return {
    add: useMutation({
      mutationFn: ({ relay, name, sources }: StreamInput) =>
        relay === LOCAL_RELAY
          ? callService(api, 'relay', 'addStream', { name, sources })
          : callService(api, 'relays', 'addStream', { relay, name, sources }),
      onSuccess: refresh,
    }),
    edit: useMutation({
      mutationFn: ({ relay, ...change }: StreamInput) =>
        relay === LOCAL_RELAY
          ? callService(api, 'relay', 'editStream', change)
          : callService(api, 'relays', 'editStream', { relay, ...change }),
      onSuccess: refresh,
    }),
    remove: useMutation({
      mutationFn: ({ relay, name }: { relay: string; name: string }) =>
        relay === LOCAL_RELAY
          ? callService(api, 'relay', 'deleteStream', { name })
          : callService(api, 'relays', 'deleteStream', { relay, name }),
      onSuccess: refresh,
    }),
    probe: useMutation({
      mutationFn: async ({ relay, source }: { relay: string; source: string }): Promise<ProbeResult> => {
        if (relay === LOCAL_RELAY) return callService(api, 'relay', 'probeSource', { source });
        // A remote relay names its tracks only (go2rtc's probe answer); there is no codec detail to show.
        const { medias, error } = await callService(api, 'relays', 'probeSource', { relay, source });
        return { medias, codecs: [], ...(error ? { error } : {}) };
      },
    }),
    /** The Result, not thrown: a form shows a refused check (not connected) as its own error. */
    check: (source: string) => api.relay.checkSource({ source }),
  };
}

/** Where the relay's own servers listen (for the RTSP link). */
export function useRelayEndpoints() {
  return useServiceQuery('relay', 'endpoints');
}
