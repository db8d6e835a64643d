import type { ServiceImpl } from '@shared/contract/define-service';
import { ContractFailure } from '@shared/contract/result';
import type { storageService } from '@shared/contract/storage';
import type { KodoClient } from './kodo-client';

type SettingsMethods =
  | 'bucketSettings'
  | 'setBucketAccess'
  | 'bindDomain'
  | 'unbindDomain'
  | 'saveLifecycleRule'
  | 'deleteLifecycleRule'
  | 'setCorsRules'
  | 'setReferer';

/** The `storage` service's calls on a bucket's settings: each change answers with the settings as the service now holds them. */
export function bucketSettingsHandlers(
  clientFor: (accountId: string) => Promise<KodoClient>,
): Pick<ServiceImpl<typeof storageService>, SettingsMethods> {
  /** One change of a bucket's settings, answered with the settings as the service now holds them. */
  const changeSettings = async (accountId: string, bucket: string, change: (client: KodoClient) => Promise<void>) => {
    const client = await clientFor(accountId);
    await change(client);
    return client.bucketSettings(bucket);
  };

  return {
    bucketSettings: async ({ accountId, bucket }) => (await clientFor(accountId)).bucketSettings(bucket),
    setBucketAccess: async ({ accountId, bucket, private: isPrivate }) =>
      changeSettings(accountId, bucket, (client) => client.setPrivate(bucket, isPrivate)),
    bindDomain: async ({ accountId, bucket, domain }) => changeSettings(accountId, bucket, (client) => client.bindDomain(bucket, domain)),
    unbindDomain: async ({ accountId, bucket, domain }) =>
      changeSettings(accountId, bucket, async (client) => {
        // uc's unpublish names only the domain: check it is this bucket's, so a typo never unbinds another bucket's.
        const { domains } = await client.bucketSettings(bucket);
        if (!domains.some((d) => d.domain === domain)) throw new ContractFailure('not_found', `${domain} is not bound to ${bucket}`);
        await client.unbindDomain(domain);
      }),
    saveLifecycleRule: async ({ accountId, bucket, rule }) =>
      changeSettings(accountId, bucket, (client) => client.saveLifecycleRule(bucket, rule)),
    deleteLifecycleRule: async ({ accountId, bucket, name }) =>
      changeSettings(accountId, bucket, (client) => client.deleteLifecycleRule(bucket, name)),
    setCorsRules: async ({ accountId, bucket, rules }) => changeSettings(accountId, bucket, (client) => client.setCorsRules(bucket, rules)),
    setReferer: async ({ accountId, bucket, referer }) => changeSettings(accountId, bucket, (client) => client.setReferer(bucket, referer)),
  };
}
