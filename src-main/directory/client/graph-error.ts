import type { PublicError } from '@microsoft/microsoft-graph-types';
import { parseRetryAfter } from './retry-policy';

/**
 * A failed Graph call as a value: the OData error code and message, the HTTP status and the ids
 * that tie it to the service's logs. Network failures use status 0 and code `networkError`.
 */
export class GraphError extends Error {
  override readonly name = 'GraphError';
  constructor(
    readonly status: number,
    /** Graph's `error.code` (e.g. `SyncStateNotFound`, `InvalidModel`), or `http<status>` when the body had none. */
    readonly code: string,
    message: string,
    readonly requestId: string | null = null,
    readonly clientRequestId: string | null = null,
    /** innerError.date as Graph sends it (no Z), or null. */
    readonly date: string | null = null,
    /** The parsed error body, for details beyond code and message (e.g. details[]). */
    readonly body: unknown = null,
    /** The server's Retry-After in ms when it sent one (a throttled call that was given up on). */
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }

  toJSON(): {
    status: number;
    code: string;
    message: string;
    requestId: string | null;
    clientRequestId: string | null;
    retryAfterMs?: number;
  } {
    return {
      status: this.status,
      code: this.code,
      message: this.message,
      requestId: this.requestId,
      clientRequestId: this.clientRequestId,
      ...(this.retryAfterMs === undefined ? {} : { retryAfterMs: this.retryAfterMs }),
    };
  }
}

export function isGraphError(value: unknown, code?: string): value is GraphError {
  return value instanceof GraphError && (code === undefined || value.code === code);
}

interface ODataErrorBody {
  error?: PublicError & { innerError?: { date?: string; 'request-id'?: string; 'client-request-id'?: string } };
}

/** Builds the error from a non-2xx response: the OData body when there is one, else the status line. */
export async function graphErrorFromResponse(response: Response, clientRequestId: string): Promise<GraphError> {
  const text = await response.text().catch(() => '');
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = null;
  }
  const error = (body as ODataErrorBody | null)?.error;
  const inner = error?.innerError;
  const requestId = response.headers.get('request-id') ?? inner?.['request-id'] ?? null;
  const echoedClientId = response.headers.get('client-request-id') ?? inner?.['client-request-id'] ?? clientRequestId;
  const code = typeof error?.code === 'string' && error.code ? error.code : `http${response.status}`;
  const message =
    typeof error?.message === 'string' && error.message
      ? error.message
      : `${response.status} ${response.statusText || 'error'}${text && !error ? `: ${text.slice(0, 200)}` : ''}`;
  const retryAfterMs = parseRetryAfter(response.headers.get('retry-after')) ?? undefined;
  return new GraphError(response.status, code, message, requestId, echoedClientId, inner?.date ?? null, body, retryAfterMs);
}
