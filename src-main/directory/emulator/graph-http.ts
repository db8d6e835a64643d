import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { GraphError, badRequest } from './graph-error';

/** Graph's JSON content type (OData minimal metadata). */
const ODATA_JSON = 'application/json;odata.metadata=minimal;odata.streaming=true;IEEE754Compatible=false;charset=utf-8';

/** The ids Graph puts on every reply: its own request-id and the caller's client-request-id echoed. */
export interface RequestIds {
  requestId: string;
  clientRequestId: string;
}

export function requestIds(req: IncomingMessage): RequestIds {
  const requestId = randomUUID();
  const sent = req.headers['client-request-id'];
  const clientRequestId = typeof sent === 'string' && sent.length > 0 && sent.length <= 200 ? sent : requestId;
  return { requestId, clientRequestId };
}

export async function readBody(req: IncomingMessage, limit = 4 * 1024 * 1024): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    // The rest of the body is not read: the connection closes after the answer, so the next
    // request does not land in the middle of this one's bytes.
    if (size > limit)
      throw new GraphError(413, 'RequestEntityTooLarge', `The request body is larger than ${limit} bytes.`, { Connection: 'close' });
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** Parses a JSON object body; anything else is Graph's 400 BadRequest. */
export async function readJsonObject(req: IncomingMessage): Promise<Record<string, unknown>> {
  const raw = (await readBody(req)).toString('utf8');
  if (raw.trim() === '') throw badRequest('BadRequest', 'Empty Payload. JSON content expected.');
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw badRequest(
      'BadRequest',
      'Unable to read JSON request payload. Please ensure Content-Type header is set and payload is of valid JSON format.',
    );
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw badRequest('BadRequest', 'The request body must be a JSON object.');
  return parsed as Record<string, unknown>;
}

export function sendJson(res: ServerResponse, status: number, body: unknown, ids: RequestIds, headers: Record<string, string> = {}): void {
  const text = body === undefined ? '' : JSON.stringify(body);
  res.writeHead(status, {
    ...(body === undefined ? {} : { 'Content-Type': ODATA_JSON }),
    'Content-Length': Buffer.byteLength(text),
    'Cache-Control': 'no-cache',
    'OData-Version': '4.0',
    'request-id': ids.requestId,
    'client-request-id': ids.clientRequestId,
    ...headers,
  });
  res.end(text);
}

/** A plain-text answer (`/$count`), with the ids every Graph reply carries. */
export function sendText(res: ServerResponse, status: number, text: string, ids: RequestIds): void {
  res.writeHead(status, {
    'Content-Type': 'text/plain;charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
    'Cache-Control': 'no-cache',
    'OData-Version': '4.0',
    'request-id': ids.requestId,
    'client-request-id': ids.clientRequestId,
  });
  res.end(text);
}

/** innerError.date as Graph writes it: UTC, seconds, no `Z`. */
function graphDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19);
}

export function sendGraphError(res: ServerResponse, error: GraphError, ids: RequestIds, now: number): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  sendJson(
    res,
    error.status,
    {
      error: {
        code: error.code,
        message: error.message,
        innerError: { date: graphDate(now), 'request-id': ids.requestId, 'client-request-id': ids.clientRequestId },
      },
    },
    ids,
    error.headers,
  );
}

/** The `Prefer` preferences Graph honours here: page size and the reply's time zone. */
export interface Preferences {
  maxPageSize?: number;
  timeZone?: string;
}

export function parsePrefer(req: IncomingMessage): Preferences {
  const header = req.headers.prefer;
  const text = Array.isArray(header) ? header.join(',') : (header ?? '');
  const out: Preferences = {};
  for (const part of splitPreferences(text)) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const name = part.slice(0, eq).trim().toLowerCase();
    const value = part
      .slice(eq + 1)
      .trim()
      .replace(/^"(.*)"$/, '$1');
    if (name === 'odata.maxpagesize') {
      const n = Number(value);
      if (Number.isInteger(n) && n > 0) out.maxPageSize = n;
    } else if (name === 'outlook.timezone' && value !== '') out.timeZone = value;
  }
  return out;
}

/** Splits on commas outside quotes (a time-zone name never has one, but be safe). */
function splitPreferences(text: string): string[] {
  const parts: string[] = [];
  let current = '';
  let quoted = false;
  for (const ch of text) {
    if (ch === '"') quoted = !quoted;
    if (ch === ',' && !quoted) {
      parts.push(current);
      current = '';
    } else current += ch;
  }
  if (current.trim() !== '') parts.push(current);
  return parts;
}
