import type * as Http from 'node:http';
import type * as Https from 'node:https';
import { createRequire } from 'node:module';
import type QiniuSdk from 'qiniu';

const requireFromHere = createRequire(import.meta.url);

/**
 * The official Kodo SDK, loaded when a storage client first needs it rather than at start: it
 * and its dependencies take about 10 MB, which a relay that never opens storage should not hold.
 * (Node caches it after the first call.)
 *
 * Its requests go through connections kept open between calls: left to its HTTP library's own
 * agent, every call (a recording uploads a segment per camera every few seconds) opened a
 * connection and closed it after the answer. Idle connections hold nothing up (Node lets the
 * process exit past them) and are let go before the server's keep-alive hint runs out.
 */
export const qiniuSdk = (): typeof QiniuSdk => {
  const sdk = requireFromHere('qiniu') as typeof QiniuSdk;
  const conf = sdk.conf as { RPC_HTTP_AGENT?: Http.Agent | null; RPC_HTTPS_AGENT?: Https.Agent | null };
  // Required, not imported: loaded with the SDK (which loads them anyway), not at the engine's start.
  conf.RPC_HTTP_AGENT ??= new (requireFromHere('node:http') as typeof Http).Agent({ keepAlive: true });
  conf.RPC_HTTPS_AGENT ??= new (requireFromHere('node:https') as typeof Https).Agent({ keepAlive: true });
  return sdk;
};
