import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SignInStatus } from '../../../src-shared/contract/directory-accounts';
import { unwrap } from '../../../src-shared/contract/result';
import { useApi } from '../../api/api-context';
import { queryKeys } from '../../api/query-keys';
import { useServiceEvent } from '../../api/use-service-event';

/** Who the directory acts as; main pushes each change (a device code, a finished sign-in). */
export function useDirectoryAccount() {
  const api = useApi();
  const queryClient = useQueryClient();
  useServiceEvent(api.directoryAccount.onStatus, (status: SignInStatus) => queryClient.setQueryData(queryKeys.directoryAccount, status));
  const status = useQuery({ queryKey: queryKeys.directoryAccount, queryFn: async () => unwrap(await api.directoryAccount.status()) });
  const act = useMutation({
    mutationFn: async (action: 'signIn' | 'signOut') => unwrap(await api.directoryAccount[action]()),
    // Anything read as the old account is stale now.
    onSuccess: (next) => {
      queryClient.setQueryData(queryKeys.directoryAccount, next);
      void queryClient.invalidateQueries({ predicate: (query) => String(query.queryKey[0]).startsWith('directory') && query.queryKey[0] !== 'directoryAccount' });
    },
  });
  return { status, act };
}
