import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../../api/api-context';
import { callService, serviceFilter } from '../../api/service-query';
import { useServiceMutation, useServiceQuery } from '../../api/use-service-query';

/** A stream to add, or to change (`newName` renames it), with its sources in order. */
export interface StreamInput {
  name: string;
  newName?: string;
  sources: string[];
}

/** Add, edit, delete and probe: each refreshes the list at once instead of waiting for the next event. */
export function useStreamActions() {
  const api = useApi();
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries(serviceFilter('relay', 'listStreams'));
  return {
    add: useMutation({
      mutationFn: ({ name, sources }: StreamInput) => callService(api, 'relay', 'addStream', { name, sources }),
      onSuccess: refresh,
    }),
    edit: useServiceMutation('relay', 'editStream', { onSuccess: refresh }),
    remove: useServiceMutation('relay', 'deleteStream', { onSuccess: refresh }),
    probe: useServiceMutation('relay', 'probeSource'),
    /** The Result, not thrown: a form shows a refused check (not connected) as its own error. */
    check: (source: string) => api.relay.checkSource({ source }),
  };
}

/** Where the relay's own servers listen (for the RTSP link). */
export function useRelayEndpoints() {
  return useServiceQuery('relay', 'endpoints');
}
