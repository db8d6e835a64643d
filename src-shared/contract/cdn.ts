import { z } from 'zod';
import { defineService, method } from './define-service';

/** What one refresh or prefetch request may carry (Kodo's CDN API). */
export const CDN_LIMITS = { urlsPerRequest: 100, dirsPerRequest: 10 } as const;

export const CDN_GRANULARITIES = ['5min', 'hour', 'day'] as const;
export type CdnGranularity = (typeof CDN_GRANULARITIES)[number];

const httpUrl = z.url({ protocol: /^https?$/, error: 'a URL like https://cdn.example.com/a.jpg' });
const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'a day like 2026-11-25');
const account = { accountId: z.string().min(1) };

/** The daily quota as the service last reported it (in each refresh and prefetch answer). */
const cdnQuotaSchema = z.object({
  urlQuotaDay: z.number().optional(),
  urlSurplusDay: z.number().optional(),
  dirQuotaDay: z.number().optional(),
  dirSurplusDay: z.number().optional(),
  prefetchQuotaDay: z.number().optional(),
  prefetchSurplusDay: z.number().optional(),
});
export type CdnQuota = z.infer<typeof cdnQuotaSchema>;

const cdnRequestResultSchema = z.object({
  requestId: z.string(),
  /** URLs and folders the service took. */
  accepted: z.number().int(),
  /** URLs and folders it refused (not a domain of the account, no such object). */
  invalid: z.array(z.string()),
  quota: cdnQuotaSchema,
});
export type CdnRequestResult = z.infer<typeof cdnRequestResultSchema>;

const trafficSchema = z.object({
  /** Slot start times, `YYYY-MM-DD HH:mm:ss` (UTC). */
  time: z.array(z.string()),
  /** Per domain: bytes per slot (flux) or bits per second (bandwidth). */
  series: z.array(z.object({ domain: z.string(), values: z.array(z.number()) })),
});
export type Traffic = z.infer<typeof trafficSchema>;

const cdnLogSchema = z.object({ domain: z.string(), name: z.string(), size: z.number(), mtime: z.number(), url: z.string() });
export type CdnLog = z.infer<typeof cdnLogSchema>;

/** The CDN in front of an account's buckets: refresh, prefetch, traffic and access logs. */
export const cdnService = defineService({
  name: 'cdn',
  methods: {
    /** The account's CDN domains (the domains bound to its buckets). */
    domains: method(z.object(account), z.array(z.object({ domain: z.string(), bucket: z.string() }))),
    /** The daily quota last reported for this account, if any request was made this run. */
    quota: method(z.object(account), cdnQuotaSchema),
    refresh: method(
      z
        .object({
          ...account,
          urls: z.array(httpUrl).max(CDN_LIMITS.urlsPerRequest, `at most ${CDN_LIMITS.urlsPerRequest} URLs per request`).default([]),
          dirs: z
            .array(httpUrl.refine((u) => u.endsWith('/'), 'a folder URL ends with /'))
            .max(CDN_LIMITS.dirsPerRequest, `at most ${CDN_LIMITS.dirsPerRequest} folders per request`)
            .default([]),
        })
        .refine((r) => r.urls.length + r.dirs.length > 0, { message: 'give at least one URL or folder', path: ['urls'] }),
      cdnRequestResultSchema,
    ),
    prefetch: method(
      z.object({
        ...account,
        urls: z
          .array(httpUrl)
          .min(1, 'give at least one URL')
          .max(CDN_LIMITS.urlsPerRequest, `at most ${CDN_LIMITS.urlsPerRequest} URLs per request`),
      }),
      cdnRequestResultSchema,
    ),
    traffic: method(
      z
        .object({
          ...account,
          kind: z.enum(['flux', 'bandwidth']),
          granularity: z.enum(CDN_GRANULARITIES),
          startDate: day,
          endDate: day,
          domains: z.array(z.string().min(1)).min(1, 'choose a domain').max(100),
        })
        .refine((r) => r.startDate <= r.endDate, { message: 'the range ends before it starts', path: ['endDate'] }),
      trafficSchema,
    ),
    logs: method(
      z.object({ ...account, day, domains: z.array(z.string().min(1)).min(1, 'choose a domain').max(100) }),
      z.array(cdnLogSchema),
    ),
  },
  events: {},
});
