import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { SignInStatus } from '@shared/contract/directory-accounts';
import { useApi } from '../../api/api-context';
import { callService, serviceKey } from '../../api/service-query';
import { useServiceEvent } from '../../api/use-service-event';
import { useServiceQuery } from '../../api/use-service-query';

/** Who the directory acts as; main pushes each change (a device code, a finished sign-in). */
export function useDirectoryAccount() {
  const api = useApi();
  const queryClient = useQueryClient();
  const statusKey = serviceKey('directoryAccount', 'status');
  useServiceEvent(api.directoryAccount.onStatus, (status: SignInStatus) => queryClient.setQueryData(statusKey, status));
  const status = useServiceQuery('directoryAccount', 'status');
  const act = useMutation({
    mutationFn: (action: 'signIn' | 'signOut') => callService(api, 'directoryAccount', action),
    // Anything read as the old account is stale now.
    onSuccess: (next) => {
      queryClient.setQueryData(statusKey, next);
      void queryClient.invalidateQueries({
        predicate: (query) => String(query.queryKey[0]).startsWith('directory') && query.queryKey[0] !== 'directoryAccount',
      });
    },
  });
  return { status, act };
}
