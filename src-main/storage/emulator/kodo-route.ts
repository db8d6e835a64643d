import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RouteSpec } from '../../platform/http/route-table';
import type { Account } from './auth';

/** One request as a Kodo route sees it. */
interface KodoRequest {
  req: IncomingMessage;
  res: ServerResponse;
  /** The path and query as sent: signatures and download tokens cover them. */
  url: string;
  /** The path as sent. */
  pathname: string;
  query: URLSearchParams;
  /**
   * The route's `:name` parameters and its `*` rest, as sent: Kodo's entries, keys and domains
   * are urlsafe base64 in the path, never %-escaped.
   */
  params: Readonly<Record<string, string>>;
}

/** A route of the Kodo emulator's table: method, path pattern (platform/http/route-table.ts), handler. */
export interface KodoRoute extends RouteSpec {
  handler(request: KodoRequest): void | Promise<void>;
}

/** An account-signed call (rs, rsf, io, uc, api, fusion), once its QBox or Qiniu signature is checked. */
export interface ManagementRequest extends KodoRequest {
  /** The account whose signature was verified. */
  account: Account;
  /** The body, read whole: the signature covers it. */
  body: Buffer;
}

/** A route of an account-signed API: the signature is checked, and the body read, before its handler runs. */
export interface ManagementRoute extends RouteSpec {
  handler(request: ManagementRequest): void | Promise<void>;
}

/** The segments of a `*` rest (`force/true` → `['force', 'true']`), none for an empty one. */
export function restSegments(params: Readonly<Record<string, string>>): string[] {
  const rest = params['*'] ?? '';
  return rest === '' ? [] : rest.split('/');
}
