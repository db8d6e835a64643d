import type { ServerResponse } from 'node:http';

/** One thing a discovery found that can become a stream, as go2rtc's discovery endpoints list them. */
export interface DiscoveredSource {
  name: string;
  url: string;
  info?: string;
  location?: string;
}

/** `{"sources":[...]}`, or 404 "no sources" as go2rtc answers an empty discovery. */
export function sendSources(res: ServerResponse, sources: DiscoveredSource[]): void {
  if (sources.length === 0) {
    res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('no sources');
    return;
  }
  res.writeHead(200, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify({ sources }, null, 2));
}
