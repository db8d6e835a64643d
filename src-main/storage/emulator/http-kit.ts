import type { IncomingMessage, ServerResponse } from 'node:http';
import { KodoError } from './kodo-error';

export async function readBody(req: IncomingMessage, limit = 8 * 1024 * 1024): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw new KodoError(413, `request body larger than ${limit} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = body === undefined ? '' : JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(text),
    'Cache-Control': 'no-store',
    ...headers,
  });
  res.end(text);
}

export function sendRaw(res: ServerResponse, status: number, body: Buffer | string, contentType: string): void {
  res.writeHead(status, { 'Content-Type': contentType, 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}

/** Kodo error bodies: `{"error": "..."}` with the Kodo status code. */
export function sendError(res: ServerResponse, status: number, message: string): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  sendJson(res, status, { error: message });
}

/** Form fields of an x-www-form-urlencoded body, with repeated names kept (batch `op=`). */
export function parseForm(body: Buffer | string): URLSearchParams {
  return new URLSearchParams(typeof body === 'string' ? body : body.toString('utf8'));
}
