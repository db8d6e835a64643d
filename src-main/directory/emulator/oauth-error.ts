import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';

/** An Entra ID OAuth error: `{error, error_description, error_codes, timestamp, trace_id, correlation_id}`. */
export class OAuthError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    readonly aadsts: number,
    description: string,
    /** Entra's finer reason for some errors, e.g. `consent_required` under `invalid_grant`. */
    readonly suberror?: string,
  ) {
    super(description);
  }
}

export const missing = (name: string) =>
  new OAuthError(400, 'invalid_request', 900144, `The request body must contain the following parameter: '${name}'.`);

export function sendOAuthError(res: ServerResponse, error: OAuthError, now: number): void {
  const traceId = randomUUID();
  const correlationId = randomUUID();
  const timestamp = new Date(now)
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d{3}Z$/, 'Z');
  const body = JSON.stringify({
    error: error.error,
    error_description: `AADSTS${error.aadsts}: ${error.message} Trace ID: ${traceId} Correlation ID: ${correlationId} Timestamp: ${timestamp}`,
    error_codes: [error.aadsts],
    timestamp,
    trace_id: traceId,
    correlation_id: correlationId,
    error_uri: `https://login.microsoftonline.com/error?code=${error.aadsts}`,
    ...(error.suberror !== undefined ? { suberror: error.suberror } : {}),
  });
  res.writeHead(error.status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
    'Cache-Control': 'no-store',
  });
  res.end(body);
}
