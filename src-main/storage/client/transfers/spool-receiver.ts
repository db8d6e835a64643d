import { createWriteStream, mkdirSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { TRANSFER_BODY_PATH } from '@shared/contract/transfers';
import { HttpError } from '@main/platform/http/http-error';
import type { RouteHandler } from '@main/platform/http/router';
import type { TransferQueue } from './transfer-queue';

const CONTENT_RANGE = /^bytes (\d+)-(\d+)\/(\d+)$/;

/**
 * Where a browser sends the bytes of a file it uploads: `PUT /console/transfers/<id>` with
 * `Content-Range: bytes <first>-<last>/<size>`, in order; `GET` says how much has arrived, so a
 * sender that lost its connection goes on from there. While the user has the upload paused,
 * both answer `{ paused: true }` and the sender waits to be woken. The id is a random capability handed out
 * only over the console's authenticated socket, and Content-Range is not a header another
 * site's page may send without a preflight this server never grants.
 */
export function createSpoolReceiver(queue: TransferQueue): RouteHandler {
  const busy = new Set<string>();
  const reply = (res: Parameters<RouteHandler>[0]['res'], status: number, body: unknown) => {
    res.writeHead(status, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
    res.end(JSON.stringify(body));
  };

  return async ({ req, res, url }) => {
    const id = decodeURIComponent(url.pathname.slice(TRANSFER_BODY_PATH.length));
    const row = queue.receiving(id);
    // Paused by the user: not an error, an answer. The sender keeps the file and stops until the
    // upload is resumed; a range that arrives meanwhile is not kept.
    const paused = row ? undefined : queue.pausedReading(id);
    if (paused && (req.method === 'GET' || req.method === 'PUT')) {
      if (req.method === 'PUT') req.resume();
      return reply(res, 200, { paused: true, received: paused.received, size: paused.size });
    }
    if (req.method === 'GET') {
      if (!row) throw new HttpError(404, 'no upload is waiting for bytes under this id');
      return reply(res, 200, { received: row.received, size: row.size });
    }
    if (req.method !== 'PUT') {
      res.setHeader('Allow', 'GET, PUT');
      throw new HttpError(405, `method ${req.method} not allowed on an upload`);
    }
    if (!row) throw new HttpError(404, 'no upload is waiting for bytes under this id (finished, canceled or unknown)');
    const range = CONTENT_RANGE.exec(req.headers['content-range'] ?? '');
    if (!range) throw new HttpError(400, 'Content-Range is required: bytes <first>-<last>/<size>');
    const [first, last, total] = [Number(range[1]), Number(range[2]), Number(range[3])];
    if (total !== row.size) throw new HttpError(400, `the file has ${row.size} bytes, not ${total}`);
    if (last < first || last >= total) throw new HttpError(400, `bytes ${first}-${last} are not inside a file of ${total}`);
    if (first !== row.received) return reply(res, 409, { error: `bytes must continue at ${row.received}`, received: row.received });
    if (busy.has(id)) return reply(res, 409, { error: 'another request is sending this file', received: row.received });

    busy.add(id);
    const path = queue.spoolPath(id);
    const expected = last - first + 1;
    let written = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        if (written + chunk.length > expected)
          return done(new HttpError(400, `the body is longer than the ${expected} bytes of its Content-Range`));
        written += chunk.length;
        done(null, chunk);
      },
    });
    try {
      mkdirSync(dirname(path), { recursive: true });
      await pipeline(req, counter, createWriteStream(path, first === 0 ? { flags: 'w' } : { flags: 'r+', start: first }));
    } catch (error) {
      // What did arrive is a true prefix of the file: keep it, the sender goes on from there.
      if (error instanceof HttpError) throw error;
    } finally {
      busy.delete(id);
      // Only bytes that reached the disk count, whatever the request did.
      const onDisk = written > 0 ? Math.min(first + written, statSync(path, { throwIfNoEntry: false })?.size ?? 0) : first;
      if (onDisk > first) queue.received(id, onDisk);
    }
    if (written !== expected) throw new HttpError(400, `the body ended after ${written} of ${expected} bytes`);
    reply(res, 200, { received: first + written, size: row.size });
  };
}
