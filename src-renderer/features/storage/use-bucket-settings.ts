import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { unwrap, type Result } from '../../../src-shared/contract/result';
import type { BucketSettings } from '../../../src-shared/contract/storage';
import { useApi } from '../../api/api-context';
import { queryKeys } from '../../api/query-keys';

const settingsKey = (accountId: string, bucket: string) => [...queryKeys.storageBucket(accountId, bucket), 'settings'] as const;

/** A change of the settings: its answer replaces the cached settings, and the bucket list (access, domains) is read again. */
function useSettingsChange<T>(accountId: string, bucket: string, send: (input: T) => Promise<Result<BucketSettings>>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: T) => unwrap(await send(input)),
    onSuccess: (next) => {
      queryClient.setQueryData(settingsKey(accountId, bucket), next);
      void queryClient.invalidateQueries({ queryKey: queryKeys.storageBuckets(accountId) });
    },
  });
}

/** One bucket's settings; every change answers the settings as the service now holds them. */
export function useBucketSettings(accountId: string, bucket: string, enabled: boolean) {
  const api = useApi();
  const settings = useQuery({
    queryKey: settingsKey(accountId, bucket),
    queryFn: async () => unwrap(await api.storage.bucketSettings({ accountId, bucket })),
    enabled,
  });
  const target = { accountId, bucket };
  return {
    settings,
    setAccess: useSettingsChange(accountId, bucket, (isPrivate: boolean) => api.storage.setBucketAccess({ ...target, private: isPrivate })),
    bindDomain: useSettingsChange(accountId, bucket, (domain: string) => api.storage.bindDomain({ ...target, domain })),
    unbindDomain: useSettingsChange(accountId, bucket, (domain: string) => api.storage.unbindDomain({ ...target, domain })),
    saveRule: useSettingsChange(accountId, bucket, (rule: BucketSettings['lifecycle'][number]) => api.storage.saveLifecycleRule({ ...target, rule })),
    deleteRule: useSettingsChange(accountId, bucket, (name: string) => api.storage.deleteLifecycleRule({ ...target, name })),
    setCors: useSettingsChange(accountId, bucket, (rules: BucketSettings['cors']) => api.storage.setCorsRules({ ...target, rules })),
    setReferer: useSettingsChange(accountId, bucket, (referer: BucketSettings['referer']) => api.storage.setReferer({ ...target, referer })),
  };
}
