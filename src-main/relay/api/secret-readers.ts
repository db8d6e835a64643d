import type { IncomingMessage } from 'node:http';
import type { EngineContext } from '../../engine/engine-context';
import { isCrossSiteRequest } from '../../platform/http/cross-origin';
import { isLoopbackAddress } from '../../platform/http/request-guard';

/**
 * Whether a caller may read secrets back as they were written (the config file's passwords, the
 * source URLs of streams): a tool or the console on a server that only this machine reaches, or
 * a caller that gave the API's username and password. Pages of other sites, which `api.origin`
 * may let read, never. Everyone else sees `***`.
 */
export function mayReadSecrets(ctx: EngineContext, req: IncomingMessage): boolean {
  if (isCrossSiteRequest(req)) return false;
  return isLoopbackAddress(ctx.settings.api.host) || (!!ctx.settings.api.username && !!req.headers.authorization);
}
