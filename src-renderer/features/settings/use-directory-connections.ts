import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { serviceKey } from '../../api/service-query';
import { useServiceMutation, useServiceQuery } from '../../api/use-service-query';

/** Everything read through the previous connection (packages, assignments, the calendar copy) is another tenant's now. */
function forgetDirectoryData(queryClient: QueryClient) {
  return queryClient.invalidateQueries({ predicate: (query) => /^(directory|calendarSync|graphTraffic)/.test(String(query.queryKey[0])) });
}

/** The directory connections of Settings: the config file's and the tenants added here. */
export function useDirectoryConnections() {
  const queryClient = useQueryClient();
  const list = useServiceQuery('directoryAccount', 'connections');
  const onSwitched = () => forgetDirectoryData(queryClient);
  const add = useServiceMutation('directoryAccount', 'addTenant', { onSuccess: onSwitched });
  const remove = useServiceMutation('directoryAccount', 'removeTenant', { onSuccess: onSwitched });
  const use = useServiceMutation('directoryAccount', 'useConnection', {
    onSuccess: (status) => {
      queryClient.setQueryData(serviceKey('directoryAccount', 'status'), status);
      return onSwitched();
    },
  });
  return { list, add, remove, use };
}
