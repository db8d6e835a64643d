import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { NewTenant } from '../../../src-shared/contract/directory-accounts';
import { unwrap } from '../../../src-shared/contract/result';
import { useApi } from '../../api/api-context';
import { queryKeys } from '../../api/query-keys';

/** Everything read through the previous connection (packages, assignments, the calendar copy) is another tenant's now. */
function forgetDirectoryData(queryClient: QueryClient) {
  return queryClient.invalidateQueries({ predicate: (query) => /^(directory|calendarSync|graphTraffic)/.test(String(query.queryKey[0])) });
}

/** The directory connections of Settings: the config file's and the tenants added here. */
export function useDirectoryConnections() {
  const api = useApi();
  const queryClient = useQueryClient();
  const list = useQuery({ queryKey: queryKeys.directoryConnections, queryFn: async () => unwrap(await api.directoryAccount.connections()) });
  const onSwitched = () => forgetDirectoryData(queryClient);
  const add = useMutation({ mutationFn: async (tenant: NewTenant) => unwrap(await api.directoryAccount.addTenant(tenant)), onSuccess: onSwitched });
  const remove = useMutation({ mutationFn: async (id: string) => unwrap(await api.directoryAccount.removeTenant({ id })), onSuccess: onSwitched });
  const use = useMutation({
    mutationFn: async (id: string) => unwrap(await api.directoryAccount.useConnection({ id })),
    onSuccess: (status) => {
      queryClient.setQueryData(queryKeys.directoryAccount, status);
      return onSwitched();
    },
  });
  return { list, add, remove, use };
}
