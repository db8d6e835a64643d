import { request as httpsRequest } from 'node:https';
import { nodeHttp } from '../../platform/cjs-builtins';

export interface CallbackReply {
  status: number;
  text: string;
}

/**
 * POSTs an upload callback. Through node:http rather than fetch: fetch drops a Host header it
 * is given, and `callbackHost` must reach the business server as its Host, as Kodo sends it.
 */
export function postCallback(url: URL, headers: Record<string, string>, body: string, timeoutMs: number): Promise<CallbackReply> {
  const send = url.protocol === 'https:' ? httpsRequest : nodeHttp.request;
  return new Promise((resolve, reject) => {
    const req = send(
      url,
      { method: 'POST', headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)) }, timeout: timeoutMs },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no reply within ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end(body);
  });
}
