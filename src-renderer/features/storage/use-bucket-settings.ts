import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { BucketSettings } from '@shared/contract/storage';
import { useApi } from '../../api/api-context';
import { callService, serviceFilter, serviceKey } from '../../api/service-query';
import { useServiceQuery } from '../../api/use-service-query';

/** A change of the settings: its answer replaces the cached settings, and the bucket list (access, domains) is read again. */
function useSettingsChange<T>(accountId: string, bucket: string, send: (input: T) => Promise<BucketSettings>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSuccess: (next) => {
      queryClient.setQueryData(serviceKey('storage', 'bucketSettings', { accountId, bucket }), next);
      void queryClient.invalidateQueries(serviceFilter('storage', 'listBuckets', { accountId }));
    },
  });
}

/** One bucket's settings; every change answers the settings as the service now holds them. */
export function useBucketSettings(accountId: string, bucket: string, enabled: boolean) {
  const api = useApi();
  const settings = useServiceQuery('storage', 'bucketSettings', { accountId, bucket }, { enabled });
  const target = { accountId, bucket };
  return {
    settings,
    setAccess: useSettingsChange(accountId, bucket, (isPrivate: boolean) =>
      callService(api, 'storage', 'setBucketAccess', { ...target, private: isPrivate }),
    ),
    bindDomain: useSettingsChange(accountId, bucket, (domain: string) => callService(api, 'storage', 'bindDomain', { ...target, domain })),
    unbindDomain: useSettingsChange(accountId, bucket, (domain: string) =>
      callService(api, 'storage', 'unbindDomain', { ...target, domain }),
    ),
    saveRule: useSettingsChange(accountId, bucket, (rule: BucketSettings['lifecycle'][number]) =>
      callService(api, 'storage', 'saveLifecycleRule', { ...target, rule }),
    ),
    deleteRule: useSettingsChange(accountId, bucket, (name: string) =>
      callService(api, 'storage', 'deleteLifecycleRule', { ...target, name }),
    ),
    setCors: useSettingsChange(accountId, bucket, (rules: BucketSettings['cors']) =>
      callService(api, 'storage', 'setCorsRules', { ...target, rules }),
    ),
    setReferer: useSettingsChange(accountId, bucket, (referer: BucketSettings['referer']) =>
      callService(api, 'storage', 'setReferer', { ...target, referer }),
    ),
  };
}
