import type { IncomingMessage, ServerResponse } from 'node:http';
import { createRouteTable, type RouteMatch } from '../../platform/http/route-table';
import { requestOrigin } from '../../platform/tls/dual-protocol-server';
import { authenticate } from './access';
import { authorizeRoutes, type AuthorizeDeps } from './authorize-routes';
import { handleBatch } from './batch-route';
import { calendarRoutes, type CalendarDeps } from './calendar-routes';
import type { DirectoryDeps } from './directory-deps';
import { directoryRoutes } from './directory-routes';
import type { FaultInjector } from './faults';
import { badRequest, GraphError } from './graph-error';
import { parsePrefer, readJsonObject, type RequestIds } from './graph-http';
import { resourceNotFound, tenantSegment, type EndpointRoute, type GraphRoute } from './graph-route';
import { linkOrigin } from './link-origin';
import { sendMetadata } from './metadata-route';
import { peopleRoutes } from './people-routes';
import { roleDefinitionRoutes } from './role-definition-routes';
import { signInRoutes, type SignInDeps } from './sign-in-routes';
import type { SigningKey } from './signing-keys';
import { handleTokenRequest, type TokenEndpointDeps } from './token-endpoint';

export interface EmulatorRouteDeps {
  directory: DirectoryDeps;
  calendar: CalendarDeps;
  signIn: SignInDeps;
  authorize: AuthorizeDeps;
  token: TokenEndpointDeps;
  signing: SigningKey;
  faults: FaultInjector;
  clock: () => number;
  /** The emulator's own address, known once it listens. */
  publicUrl: () => string;
  /** Proves a batch step's origin headers came from this emulator's own batch route. */
  stepKey: string;
  /** The test hooks of /_emulator/. */
  evictSyncState: () => void;
  setFaults: (body: Record<string, unknown>) => void;
}

/**
 * The emulator's two route tables. The top one (every slash counts): the sign-in service (token,
 * device code, discovery, authorize), the schema, `$batch`, the test hooks and `/v1.0/*`; a path
 * it has not, or a method its routes do not take, is 404 naming where things are. Under /v1.0,
 * after faults and the bearer token, the resources' table (calendar, directory, people, role
 * definitions), matched on the decoded path with empty segments ignored.
 */
export function createEmulatorRoutes(
  deps: EmulatorRouteDeps,
): (req: IncomingMessage, res: ServerResponse, ids: RequestIds) => Promise<void> {
  const { directory, signing, clock } = deps;
  const { principals } = directory;
  const resources = createRouteTable<GraphRoute>(
    [...calendarRoutes(deps.calendar), ...directoryRoutes(directory), ...peopleRoutes(principals), ...roleDefinitionRoutes()],
    {
      emptySegments: 'drop',
      decode: 'path',
    },
  );

  /** A /v1.0 call (every route to it is under /v1.0/): faults, the token, then its resource. */
  const graph: EndpointRoute['handler'] = async ({ req, res, ids, pathname, query }) => {
    const fault = deps.faults.next();
    if (fault) throw fault;
    const caller = authenticate(req, principals, signing, clock());
    const method = req.method ?? 'GET';
    const path = pathname.slice('/v1.0'.length);
    let found: RouteMatch<GraphRoute>;
    try {
      found = resources.match(method, path);
    } catch {
      throw badRequest('BadRequest', 'The request URL is not valid.');
    }
    if (found.kind !== 'found') throw resourceNotFound(path);
    await found.route.handler({
      req,
      res,
      ids,
      caller,
      method,
      params: found.params,
      pathname,
      query,
      prefer: parsePrefer(req),
      origin: linkOrigin(req, deps.publicUrl(), deps.stepKey),
    });
  };

  /** Test hooks for callers that only have HTTP (the standalone emulator): they need a valid token. */
  const control =
    (action: (req: IncomingMessage) => void | Promise<void>): EndpointRoute['handler'] =>
    async ({ req, res, ids }) => {
      authenticate(req, principals, signing, clock());
      await action(req);
      res.writeHead(204, { 'request-id': ids.requestId }).end();
    };
  const noControl: EndpointRoute['handler'] = ({ req, pathname }) => {
    authenticate(req, principals, signing, clock());
    throw new GraphError(404, 'NotFound', `No emulator control at ${req.method} ${pathname}.`);
  };

  const endpoints = createRouteTable<EndpointRoute>([
    {
      method: 'POST',
      path: '/:tenant/oauth2/v2.0/token',
      handler: ({ req, res, params, origin }) => handleTokenRequest(deps.token, tenantSegment(params), req, res, origin),
    },
    ...signInRoutes(deps.signIn),
    ...authorizeRoutes(deps.authorize),
    // Graph serves its schema without a token (it is public), so the emulator does too; another
    // method there is an ordinary /v1.0 call.
    ...['/v1.0/$metadata', '/v1.0/%24metadata'].flatMap((path): EndpointRoute[] => [
      { method: ['GET', 'HEAD'], path, ignoreCase: true, handler: ({ req, res, ids }) => sendMetadata(res, ids, req.method === 'HEAD') },
      { method: '*', path, handler: graph },
    ]),
    {
      method: 'POST',
      path: '/v1.0/$batch',
      handler: ({ req, res, ids }) => {
        authenticate(req, principals, signing, clock());
        return handleBatch(req, res, ids, {
          selfUrl: deps.publicUrl(),
          origin: linkOrigin(req, deps.publicUrl(), deps.stepKey),
          stepKey: deps.stepKey,
        });
      },
    },
    { method: '*', path: '/v1.0/$batch', handler: graph },
    { method: '*', path: '/v1.0/*', handler: graph },
    { method: 'POST', path: '/_emulator/calendar/evict-sync-state', handler: control(() => deps.evictSyncState()) },
    { method: '*', path: '/_emulator/calendar/evict-sync-state', handler: noControl },
    { method: 'PUT', path: '/_emulator/faults', handler: control(async (req) => deps.setFaults(await readJsonObject(req))) },
    { method: '*', path: '/_emulator/faults', handler: noControl },
    { method: '*', path: '/_emulator/*', handler: noControl },
  ]);

  return async (req, res, ids) => {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const pathname = q < 0 ? url : url.slice(0, q);
    const found = endpoints.match(req.method ?? 'GET', pathname);
    if (found.kind !== 'found')
      throw new GraphError(
        404,
        'NotFound',
        `No such endpoint: ${req.method} ${pathname}. Graph is under /v1.0, tokens at /{tenant}/oauth2/v2.0/token.`,
      );
    await found.route.handler({
      req,
      res,
      ids,
      pathname,
      query: new URLSearchParams(q < 0 ? '' : url.slice(q + 1)),
      params: found.params,
      origin: requestOrigin(req, deps.publicUrl()),
    });
  };
}
