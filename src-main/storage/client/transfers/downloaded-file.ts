import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { DOWNLOADED_FILE_PATH } from '@shared/contract/transfers';
import { HttpError } from '@main/platform/http/http-error';
import type { RouteHandler } from '@main/platform/http/router';
import type { TransferQueue } from './transfer-queue';
import { UNTRUSTED_CONTENT_HEADERS } from '../untrusted-content';

/**
 * `GET /console/downloads/<id>`: the file a finished download wrote, as an attachment, so a
 * browser on another machine than the console saves its own copy. The id is the transfer's
 * random capability; only finished downloads are served, never any other path.
 */
export function createDownloadedFileRoute(queue: TransferQueue): RouteHandler {
  return async ({ req, res, url }) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('Allow', 'GET, HEAD');
      throw new HttpError(405, 'a downloaded file is read with GET');
    }
    const path = queue.downloadedFile(decodeURIComponent(url.pathname.slice(DOWNLOADED_FILE_PATH.length)));
    if (!path) throw new HttpError(404, 'no finished download under this id');
    const info = await stat(path).catch(() => undefined);
    if (!info?.isFile()) throw new HttpError(410, 'the downloaded file was moved or deleted since');
    res.writeHead(200, {
      'Content-Type': 'application/octet-stream',
      'Content-Length': info.size,
      'Content-Disposition': `attachment; filename*=UTF-8''${encodeURIComponent(basename(path))}`,
      ...UNTRUSTED_CONTENT_HEADERS,
      'Cache-Control': 'no-store',
    });
    if (req.method === 'HEAD') return void res.end();
    await pipeline(createReadStream(path), res);
  };
}
