import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { unwrap } from '../../../src-shared/contract/result';
import { useApi } from '../../api/api-context';
import { queryKeys } from '../../api/query-keys';

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
  const refresh = () => queryClient.invalidateQueries({ queryKey: queryKeys.streams });
  return {
    add: useMutation({ mutationFn: async ({ name, sources }: StreamInput) => unwrap(await api.relay.addStream({ name, sources })), onSuccess: refresh }),
    edit: useMutation({ mutationFn: async (input: StreamInput) => unwrap(await api.relay.editStream(input)), onSuccess: refresh }),
    remove: useMutation({ mutationFn: async (name: string) => unwrap(await api.relay.deleteStream({ name })), onSuccess: refresh }),
    probe: useMutation({ mutationFn: async (source: string) => unwrap(await api.relay.probeSource({ source })) }),
    /** The Result, not thrown: a form shows a refused check (not connected) as its own error. */
    check: (source: string) => api.relay.checkSource({ source }),
  };
}

/** Where the relay's own servers listen (for the RTSP link). */
export function useRelayEndpoints() {
  const api = useApi();
  return useQuery({ queryKey: queryKeys.relayEndpoints, queryFn: async () => unwrap(await api.relay.endpoints()) });
}
