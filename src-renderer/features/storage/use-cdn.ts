import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CdnGranularity } from '@shared/contract/cdn';
import { useApi } from '../../api/api-context';
import { callService, serviceFilter, serviceKey } from '../../api/service-query';
import { useServiceQuery } from '../../api/use-service-query';

export function useCdnDomains(accountId: string) {
  return useServiceQuery('cdn', 'domains', { accountId }, { staleTime: 60_000 });
}

export function useCdnQuota(accountId: string) {
  return useServiceQuery('cdn', 'quota', { accountId }, { staleTime: Infinity });
}

/** Refresh or prefetch; the quota the answer reports replaces the one shown. */
export function useCdnRequest(accountId: string) {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ action, urls, dirs }: { action: 'refresh' | 'prefetch'; urls: string[]; dirs: string[] }) =>
      action === 'refresh'
        ? callService(api, 'cdn', 'refresh', { accountId, urls, dirs })
        : callService(api, 'cdn', 'prefetch', { accountId, urls }),
    onSuccess: (result) => queryClient.setQueryData(serviceKey('cdn', 'quota', { accountId }), result.quota),
    onSettled: () => queryClient.invalidateQueries(serviceFilter('cdn', 'quota', { accountId })),
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
  return useServiceQuery('cdn', 'traffic', { accountId, ...query }, { enabled: query.domains.length > 0, staleTime: 60_000 });
}

export function useCdnLogs(accountId: string, day: string, domains: string[]) {
  return useServiceQuery('cdn', 'logs', { accountId, day, domains }, { enabled: domains.length > 0, staleTime: 60_000 });
}
