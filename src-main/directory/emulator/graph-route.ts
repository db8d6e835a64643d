import type { IncomingMessage, ServerResponse } from 'node:http';
import { pathSegments, type RouteSpec } from '../../platform/http/route-table';
import type { GraphRequest } from './graph-context';
import { badRequest, type GraphError } from './graph-error';
import type { RequestIds } from './graph-http';

export type GraphHandler = (request: GraphRequest) => void | Promise<void>;

/**
 * A route of the Graph emulator's /v1.0 table: method, path pattern after /v1.0
 * (platform/http/route-table.ts: `/users/:user/events/:id`, matched on the decoded path, empty
 * segments ignored) and handler. A path no route has, or a method its routes do not take, is
 * Graph's 400 "Resource not found for the segment"; a resource that answers other methods with
 * 405 says so with a route for `*`.
 */
export interface GraphRoute extends RouteSpec {
  handler: GraphHandler;
}

/**
 * The routes of one path: a handler per method it serves and, when given, what any other method
 * gets (Graph's 405 for most resources, after the same permission checks).
 */
export function resource(path: string, methods: Readonly<Record<string, GraphHandler>>, otherMethods?: GraphHandler): GraphRoute[] {
  const routes: GraphRoute[] = Object.entries(methods).map(([method, handler]) => ({ method, path, handler }));
  return otherMethods ? [...routes, { method: '*', path, handler: otherMethods }] : routes;
}

/** Graph's answer to a path (as sent, its escapes valid) it has no resource for, naming its last segment decoded. */
export function resourceNotFound(path: string): GraphError {
  const last = pathSegments(path, 'drop').at(-1);
  return badRequest('BadRequest', `Resource not found for the segment '${last === undefined ? '' : decodeURIComponent(last)}'.`);
}

/** One request to the emulator outside the /v1.0 resources: sign-in, tokens, the schema, `$batch`, test hooks. */
export interface EndpointRequest {
  req: IncomingMessage;
  res: ServerResponse;
  ids: RequestIds;
  /** The path as sent. */
  pathname: string;
  query: URLSearchParams;
  /** The route's parameters as sent (a tenant segment is decoded by its handler, leniently). */
  params: Readonly<Record<string, string>>;
  /** `http(s)://host:port` as the client reached the emulator. */
  origin: string;
}

/** A route of the emulator's top-level table (every slash counts, as Entra's and Graph's paths). */
export interface EndpointRoute extends RouteSpec {
  handler(request: EndpointRequest): void | Promise<void>;
}

/** A tenant segment of a sign-in URL, decoded; one that is not valid percent-encoding stays as sent (and names no tenant). */
export function tenantSegment(params: Readonly<Record<string, string>>): string {
  const segment = params.tenant ?? '';
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
