import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CdnGranularity } from '../../../src-shared/contract/cdn';
import { unwrap } from '../../../src-shared/contract/result';
import { useApi } from '../../api/api-context';
import { queryKeys } from '../../api/query-keys';

export function useCdnDomains(accountId: string) {
  const api = useApi();
  return useQuery({ queryKey: [...queryKeys.cdn(accountId), 'domains'], queryFn: async () => unwrap(await api.cdn.domains({ accountId })), staleTime: 60_000 });
}

export function useCdnQuota(accountId: string) {
  const api = useApi();
  return useQuery({ queryKey: [...queryKeys.cdn(accountId), 'quota'], queryFn: async () => unwrap(await api.cdn.quota({ accountId })), staleTime: Infinity });
}

/** Refresh or prefetch; the quota the answer reports replaces the one shown. */
export function useCdnRequest(accountId: string) {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ action, urls, dirs }: { action: 'refresh' | 'prefetch'; urls: string[]; dirs: string[] }) =>
      unwrap(action === 'refresh' ? await api.cdn.refresh({ accountId, urls, dirs }) : await api.cdn.prefetch({ accountId, urls })),
    onSuccess: (result) => queryClient.setQueryData([...queryKeys.cdn(accountId), 'quota'], result.quota),
    onSettled: () => queryClient.invalidateQueries({ queryKey: [...queryKeys.cdn(accountId), 'quota'] }),
  });
}

export interface TrafficQuery {
  kind: 'flux' | 'bandwidth';
  granularity: CdnGranularity;
  startDate: string;
  endDate: string;
  domains: string[];
}

export function useTraffic(accountId: string, query: TrafficQuery) {
  const api = useApi();
  return useQuery({
    queryKey: [...queryKeys.cdn(accountId), 'traffic', query],
    queryFn: async () => unwrap(await api.cdn.traffic({ accountId, ...query })),
    enabled: query.domains.length > 0,
    staleTime: 60_000,
  });
}

export function useCdnLogs(accountId: string, day: string, domains: string[]) {
  const api = useApi();
  return useQuery({
    queryKey: [...queryKeys.cdn(accountId), 'logs', day, domains],
    queryFn: async () => unwrap(await api.cdn.logs({ accountId, day, domains })),
    enabled: domains.length > 0,
    staleTime: 60_000,
  });
}
