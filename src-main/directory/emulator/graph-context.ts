import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Caller } from './access';
import { sendJson, type Preferences, type RequestIds } from './graph-http';

/** One authenticated /v1.0 request as the route handlers see it. */
export interface GraphRequest {
  req: IncomingMessage;
  res: ServerResponse;
  ids: RequestIds;
  caller: Caller;
  method: string;
  /** The route's `:name` parameters (and `*`, the rest), URL-decoded. */
  params: Readonly<Record<string, string>>;
  /** The request path as sent (for next links). */
  pathname: string;
  query: URLSearchParams;
  prefer: Preferences;
  /** `http://host:port` as the client reached us. */
  origin: string;
}

export function reply(request: GraphRequest, status: number, body: unknown, headers: Record<string, string> = {}): void {
  sendJson(request.res, status, body, request.ids, headers);
}

/** `@odata.context` for a reply. */
export function contextUrl(request: GraphRequest, fragment: string): string {
  return `${request.origin}/v1.0/$metadata#${fragment}`;
}
