import { cdnService, type CdnQuota, type CdnRequestResult } from '@shared/contract/cdn';
import { ContractFailure } from '@shared/contract/result';
import type { EngineContext } from '@main/engine/engine-context';
import type { KodoClient } from '../kodo-client';

const numberOr = (value: unknown) => (typeof value === 'number' ? value : undefined);
const strings = (value: unknown) => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);

/** A CDN answer that is not a success, in words: `CDN 400038: refresh dir is not allowed ...`. */
function cdnFailure(status: number, data: Record<string, unknown>): ContractFailure {
  const code = numberOr(data['code']) ?? status;
  const error = typeof data['error'] === 'string' && data['error'] ? data['error'] : `HTTP ${status}`;
  if (status === 401) return new ContractFailure('unauthenticated', `CDN ${code}: the keys were refused (${error})`);
  return new ContractFailure(status >= 500 ? 'unavailable' : 'invalid_input', `CDN ${code}: ${error}`);
}

/** Binds the `cdn` contract service: the CDN API of each account, through its client's signed calls. */
export function bindCdnService(ctx: EngineContext, clientFor: (accountId: string) => Promise<KodoClient>): void {
  // The daily quota is reported only in answers: the last one seen, per account, for this run.
  const quotas = new Map<string, CdnQuota>();

  const request = async (
    accountId: string,
    path: string,
    body: Record<string, unknown>,
    quotaOf: (data: Record<string, unknown>) => CdnQuota,
  ): Promise<CdnRequestResult> => {
    const { status, data } = await (await clientFor(accountId)).cdnPost(path, body);
    const quota = { ...quotas.get(accountId), ...Object.fromEntries(Object.entries(quotaOf(data)).filter(([, v]) => v !== undefined)) };
    quotas.set(accountId, quota);
    const invalid = [...strings(data['invalidUrls']), ...strings(data['invalidDirs'])];
    // 400031: some entries were refused, the others taken; anything else not 200 is a failure.
    if (status !== 200 && numberOr(data['code']) !== 400031) throw cdnFailure(status, data);
    const accepted = Object.keys((data['taskIds'] as Record<string, unknown> | undefined) ?? {}).length;
    return { requestId: String(data['requestId'] ?? ''), accepted, invalid, quota };
  };

  ctx.services.bind(cdnService, {
    domains: async ({ accountId }) =>
      (await (await clientFor(accountId)).listBuckets()).flatMap((b) => b.domains.map((domain) => ({ domain, bucket: b.name }))),
    quota: async ({ accountId }) => quotas.get(accountId) ?? {},
    refresh: ({ accountId, urls, dirs }) =>
      request(accountId, '/v2/tune/refresh', { urls, dirs }, (d) => ({
        urlQuotaDay: numberOr(d['urlQuotaDay']),
        urlSurplusDay: numberOr(d['urlSurplusDay']),
        dirQuotaDay: numberOr(d['dirQuotaDay']),
        dirSurplusDay: numberOr(d['dirSurplusDay']),
      })),
    prefetch: ({ accountId, urls }) =>
      request(accountId, '/v2/tune/prefetch', { urls }, (d) => ({
        prefetchQuotaDay: numberOr(d['quotaDay']),
        prefetchSurplusDay: numberOr(d['surplusDay']),
      })),
    traffic: async ({ accountId, kind, granularity, startDate, endDate, domains }) => {
      const { status, data } = await (
        await clientFor(accountId)
      ).cdnPost(`/v2/tune/${kind}`, { startDate, endDate, granularity, domains: domains.join(';') });
      if (status !== 200) throw cdnFailure(status, data);
      const perDomain = (data['data'] ?? {}) as Record<string, { china?: number[]; oversea?: number[] }>;
      const time = strings(data['time']);
      return {
        time,
        series: domains.map((domain) => {
          const { china = [], oversea = [] } = perDomain[domain] ?? {};
          return { domain, values: time.map((_, i) => (china[i] ?? 0) + (oversea[i] ?? 0)) };
        }),
      };
    },
    logs: async ({ accountId, day, domains }) => {
      const { status, data } = await (await clientFor(accountId)).cdnPost('/v2/tune/log/list', { day, domains: domains.join(';') });
      if (status !== 200) throw cdnFailure(status, data);
      const perDomain = (data['data'] ?? {}) as Record<string, Array<{ name: string; size: number; mtime: number; url: string }> | null>;
      return Object.entries(perDomain).flatMap(([domain, files]) =>
        (files ?? []).map((file) => ({ domain, name: file.name, size: file.size, mtime: file.mtime, url: file.url })),
      );
    },
  });
}
