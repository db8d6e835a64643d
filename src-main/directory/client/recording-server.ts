import type { IncomingMessage, ServerResponse } from 'node:http';
import { listen } from '../../platform/listen';
import { nodeHttp } from '../../platform/cjs-builtins';

/** What a test server saw of one request. */
interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export interface RecordingServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

export type RecordingHandler = (req: RecordedRequest, res: ServerResponse) => void;

/**
 * A real HTTP server on an ephemeral loopback port that records every request and answers with
 * the given handler. For client tests that need to see exactly what went over the wire.
 */
export async function startRecordingServer(handler: RecordingHandler): Promise<RecordingServer> {
  const requests: RecordedRequest[] = [];
  const server = nodeHttp.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const recorded = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      requests.push(recorded);
      handler(recorded, res);
    });
  });
  const port = await listen(server, 0, '127.0.0.1');
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Answers with a JSON body. */
export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

/** Answers with Graph's error body shape. */
export function sendGraphError(
  res: ServerResponse,
  status: number,
  code: string,
  message: string,
  headers: Record<string, string> = {},
): void {
  const requestId = '8f5c1a52-3b0e-4c1f-9a51-6d1c0e7a1f00';
  sendJson(
    res,
    status,
    { error: { code, message, innerError: { date: '2025-03-01T10:00:00', 'request-id': requestId, 'client-request-id': requestId } } },
    { 'request-id': requestId, ...headers },
  );
}
