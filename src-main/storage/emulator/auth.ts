import { safeEqual } from '../../platform/safe-equal';
import type { IncomingHttpHeaders } from 'node:http';
import { hmacSha1B64, parseQiniuDate, urlsafeB64Decode } from './encoding';
import { KodoError } from './kodo-error';

export interface Account {
  accessKey: string;
  secretKey: string;
  dirRefresh: boolean;
}

export type AccountLookup = (accessKey: string) => Account | undefined;

interface UploadPolicy {
  scope: string;
  deadline: number;
  isPrefixalScope?: number;
  insertOnly?: number;
  endUser?: string;
  returnUrl?: string;
  returnBody?: string;
  callbackUrl?: string;
  callbackHost?: string;
  callbackBody?: string;
  callbackBodyType?: string;
  callbackFetchKey?: number;
  persistentOps?: string;
  persistentNotifyUrl?: string;
  persistentPipeline?: string;
  persistentType?: number;
  persistentWorkflowTemplateID?: string;
  saveKey?: string;
  forceSaveKey?: boolean;
  fsizeMin?: number;
  fsizeLimit?: number;
  detectMime?: number;
  mimeLimit?: string;
  deleteAfterDays?: number;
  fileType?: number;
  [field: string]: unknown;
}

export interface VerifiedUploadToken {
  account: Account;
  policy: UploadPolicy;
  bucket: string;
  /** The key part of the scope (exact key, or a prefix with isPrefixalScope), if any. */
  scopeKey: string | undefined;
}

/** `AK:sign:encodedPolicy`: signature, deadline and the policy rules of the seed. */
export function verifyUploadToken(token: string | undefined, accounts: AccountLookup, nowMs: number): VerifiedUploadToken {
  if (!token) throw new KodoError(401, 'token not specified');
  const parts = token.split(':');
  if (parts.length !== 3) throw new KodoError(401, 'bad token');
  const [accessKey, sign, encodedPolicy] = parts as [string, string, string];
  const account = accounts(accessKey);
  if (!account) throw new KodoError(401, 'bad token: unknown access key');
  if (!safeEqual(hmacSha1B64(account.secretKey, encodedPolicy), sign)) throw new KodoError(401, 'bad token: signature mismatch');
  let policy: UploadPolicy;
  try {
    policy = JSON.parse(urlsafeB64Decode(encodedPolicy).toString('utf8')) as UploadPolicy;
  } catch {
    throw new KodoError(401, 'bad token: policy is not JSON');
  }
  if (typeof policy.scope !== 'string' || policy.scope === '') throw new KodoError(401, 'bad token: no scope');
  if (typeof policy.deadline !== 'number') throw new KodoError(401, 'bad token: no deadline');
  if (policy.deadline * 1000 < nowMs) throw new KodoError(401, 'expired token');
  if (policy.persistentOps && policy.persistentWorkflowTemplateID) {
    throw new KodoError(400, 'invalid put policy: persistentOps and persistentWorkflowTemplateID are exclusive');
  }
  if (policy.persistentType !== undefined && policy.persistentType !== 0 && policy.persistentType !== 1) {
    throw new KodoError(400, 'invalid put policy: persistentType must be 0 or 1');
  }
  if (policy.persistentType === 1 && policy.persistentPipeline) {
    throw new KodoError(400, 'invalid put policy: persistentPipeline is not allowed when persistentType is 1');
  }
  if (policy.callbackBodyType && !['application/json', 'application/x-www-form-urlencoded'].includes(policy.callbackBodyType)) {
    throw new KodoError(400, 'invalid put policy: callbackBodyType must be application/json or application/x-www-form-urlencoded');
  }
  if (policy.fileType !== undefined && ![0, 1, 2, 3, 4].includes(policy.fileType)) {
    throw new KodoError(400, 'invalid put policy: fileType must be 0-4');
  }
  const at = policy.scope.indexOf(':');
  const bucket = at < 0 ? policy.scope : policy.scope.slice(0, at);
  const scopeKey = at < 0 ? undefined : policy.scope.slice(at + 1);
  return { account, policy, bucket, scopeKey };
}

/**
 * Checks the key the client asked for against the scope:
 * `bucket` → insert only; `bucket:key` → exactly that key (overwrite unless insertOnly);
 * `bucket:prefix` + isPrefixalScope → keys under the prefix.
 * Returns whether an existing object may be overwritten.
 */
export function checkScope(token: VerifiedUploadToken, key: string): { overwrite: boolean } {
  const { policy, scopeKey } = token;
  if (scopeKey === undefined) return { overwrite: false };
  if (policy.isPrefixalScope === 1) {
    if (!key.startsWith(scopeKey)) throw new KodoError(403, `key doesn't match with scope: key must start with the scope prefix`);
  } else if (key !== scopeKey) {
    throw new KodoError(403, "key doesn't match with scope");
  }
  return { overwrite: policy.insertOnly !== 1 };
}

function canonicalHeaderKey(name: string): string {
  return name
    .split('-')
    .map((part) => part.slice(0, 1).toUpperCase() + part.slice(1).toLowerCase())
    .join('-');
}

export interface SignedRequest {
  method: string;
  /** path + query exactly as received */
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/**
 * Management auth: `QBox AK:sign` (path?query\n + form body) or `Qiniu AK:sign` (v2). For v2 the
 * Node SDK signs `Host: h:p:p` when the host has a port; both spellings are accepted.
 */
export function verifyManagementAuth(request: SignedRequest, accounts: AccountLookup, nowMs: number, maxSkewSeconds: number): Account {
  const header = request.headers.authorization;
  if (!header) throw new KodoError(401, 'bad token: no Authorization header');
  const match = /^(QBox|Qiniu) ([^:\s]+):(\S+)$/.exec(header);
  if (!match) throw new KodoError(401, 'bad token: unknown Authorization scheme');
  const [, scheme, accessKey, sign] = match as unknown as [string, string, string, string];
  const account = accounts(accessKey);
  if (!account) throw new KodoError(401, 'bad token: unknown access key');
  const contentType = (request.headers['content-type'] ?? '').split(';')[0]!.trim();

  if (scheme === 'QBox') {
    // A form body is part of what is signed; without that, a captured token would carry any
    // /batch body. Other bodies are not signed in this scheme.
    const formBody = contentType === 'application/x-www-form-urlencoded' ? request.body.toString('utf8') : '';
    if (!safeEqual(hmacSha1B64(account.secretKey, `${request.url}\n${formBody}`), sign)) {
      throw new KodoError(401, 'bad token: signature mismatch');
    }
    return account;
  }

  const dateHeader = request.headers['x-qiniu-date'];
  if (typeof dateHeader === 'string') {
    const at = parseQiniuDate(dateHeader);
    if (Number.isNaN(at) || Math.abs(at - nowMs) > maxSkewSeconds * 1000) {
      throw new KodoError(403, 'X-Qiniu-Date is too far from the server time (check the clock)');
    }
  }
  const host = request.headers.host ?? '';
  const hosts = [host];
  const port = /:(\d+)$/.exec(host)?.[1];
  if (port) hosts.push(`${host}:${port}`);
  const qiniuHeaders = Object.entries(request.headers)
    .map(([k, v]) => [canonicalHeaderKey(k), Array.isArray(v) ? v.join(',') : String(v)] as const)
    .filter(([k]) => k.startsWith('X-Qiniu-') && k.length > 'X-Qiniu-'.length)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `${k}: ${v}`)
    .join('\n');
  const body = request.body.toString('utf8');
  for (const h of hosts) {
    let data = `${request.method.toUpperCase()} ${request.url}\nHost: ${h}\nContent-Type: ${contentType || 'application/x-www-form-urlencoded'}`;
    if (qiniuHeaders) data += '\n' + qiniuHeaders;
    data += '\n\n';
    // Every body but application/octet-stream is signed, as the SDKs sign it.
    const signed = contentType !== 'application/octet-stream' ? data + body : data;
    if (safeEqual(hmacSha1B64(account.secretKey, signed), sign)) return account;
  }
  throw new KodoError(401, 'bad token: signature mismatch');
}

/**
 * Private download: `token=AK:sign` over the URL up to and including `e=<deadline>`; expired: 401.
 * The token is the last parameter, as privateDownloadUrl makes it: anything after it was never
 * signed (`...&token=...&attname=evil.html` would rename what a signed link serves), so Kodo's
 * rule is kept and such a URL is refused rather than served with the extra parameters honoured.
 * Parameters that belong to the download (attname, a processing command) go before `e=`.
 */
export function verifyDownloadToken(fullUrl: string, accounts: AccountLookup, owner: string, nowMs: number): void {
  const at = Math.max(fullUrl.lastIndexOf('&token='), fullUrl.lastIndexOf('?token='));
  if (at < 0) throw new KodoError(401, 'download token not specified');
  const value = fullUrl.slice(at + '&token='.length);
  if (value.includes('&')) {
    throw new KodoError(401, 'bad token: parameters after token are not signed; put them before e= and sign the URL again');
  }
  const token = decodeURIComponent(value);
  const signed = fullUrl.slice(0, at);
  const [accessKey, sign] = token.split(':');
  const account = accessKey ? accounts(accessKey) : undefined;
  if (!account || !sign || account.accessKey !== owner) throw new KodoError(401, 'bad token');
  if (!safeEqual(hmacSha1B64(account.secretKey, signed), sign)) throw new KodoError(401, 'bad token');
  const e = /[?&]e=(\d+)/.exec(signed)?.[1];
  if (!e) throw new KodoError(401, 'bad token: no deadline');
  if (Number(e) * 1000 < nowMs) throw new KodoError(401, 'token out of date');
}
