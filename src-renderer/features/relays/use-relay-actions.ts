import { useQueryClient } from '@tanstack/react-query';
import { serviceFilter } from '@renderer/api/service-query';
import { useServiceMutation } from '@renderer/api/use-service-query';

/** Add, change, remove and test a remote relay: each refreshes the relay list and their streams at once. */
export function useRelayActions() {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries(serviceFilter('relays', ['list', 'streams']));
  return {
    add: useServiceMutation('relays', 'add', { onSuccess: refresh }),
    edit: useServiceMutation('relays', 'edit', { onSuccess: refresh }),
    remove: useServiceMutation('relays', 'remove', { onSuccess: refresh }),
    test: useServiceMutation('relays', 'test'),
  };
}
