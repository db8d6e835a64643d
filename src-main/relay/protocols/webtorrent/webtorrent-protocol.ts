import { randomInt } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import { isCrossSiteRequest } from '@main/platform/http/cross-origin';
import { HttpError } from '@main/platform/http/http-error';
import type { ProtocolContext } from '../protocol-context';
import type { WebrtcOutput } from '../webrtc/webrtc-session';
import { createLocalTracker } from './local-tracker';
import { createShareServer, type Share } from './share-server';
import { dialWebtorrent, MIN_PWD_LENGTH, MIN_SHARE_LENGTH } from './webtorrent-source';

const DEFAULT_TRACKER = 'wss://tracker.openwebtorrent.com';
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const randomText = (length: number) => Array.from({ length }, () => BASE62[randomInt(BASE62.length)]).join('');

interface WebtorrentSection {
  trackers?: string[];
  shares?: Record<string, { pwd?: string; src?: string } | null>;
}

const sectionOf = (value: unknown): WebtorrentSection => (value && typeof value === 'object' ? (value as WebtorrentSection) : {});

/**
 * P2P shares as go2rtc has them: `webtorrent:?share=..&pwd=..` sources, the relay's own shares
 * (from `webtorrent.shares` and /api/webtorrent, those until restart), announced on the first
 * of `webtorrent.trackers`; and a small tracker on the same path for a LAN or tests.
 */
export function registerWebtorrent({ ctx, schemes, streams, tasks, logger }: ProtocolContext, webrtc: WebrtcOutput): void {
  const log = logger.child('webtorrent');
  const tracker = () => sectionOf(ctx.config.section('webtorrent')).trackers?.[0] ?? DEFAULT_TRACKER;
  const server = createShareServer({ tracker, streams, tasks, webrtc, logger: log });
  ctx.onClose(() => server.close());

  schemes.register('webtorrent', { dial: (url, context) => dialWebtorrent(tasks, tracker(), url, context) });

  // Shares from the config file follow it; shares added over the API stay until removed.
  let fromConfig: Share[] = [];
  const syncConfigShares = (section: unknown) => {
    for (const share of fromConfig) server.remove(share.share);
    fromConfig = [];
    for (const [name, item] of Object.entries(sectionOf(section).shares ?? {})) {
      const pwd = item?.pwd ?? '';
      const src = item?.src ?? '';
      if (name.length < MIN_SHARE_LENGTH || pwd.length < MIN_PWD_LENGTH || !src) {
        log.warn('webtorrent share ignored', {
          share: name,
          why:
            name.length < MIN_SHARE_LENGTH
              ? `a share name needs ${MIN_SHARE_LENGTH} characters`
              : pwd.length < MIN_PWD_LENGTH
                ? `pwd needs ${MIN_PWD_LENGTH} characters`
                : 'src names no stream',
        });
        continue;
      }
      fromConfig.push({ share: name, pwd, src });
      server.add({ share: name, pwd, src });
    }
  };
  syncConfigShares(ctx.config.section('webtorrent'));
  ctx.onClose(ctx.config.onChange((config) => syncConfigShares(config.section('webtorrent'))));

  ctx.http.add([
    {
      method: ['GET', 'POST', 'DELETE'],
      path: '/api/webtorrent',
      handler: async ({ res, url, req }) => {
        const src = url.searchParams.get('src') ?? '';
        const existing = src ? server.bySrc(src) : undefined;
        const json = (status: number, body: unknown) =>
          void res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
        if (req.method === 'GET') {
          if (src) {
            if (!existing) throw new HttpError(404, `no share of ${src}`);
            return json(200, { share: existing.share, pwd: existing.pwd });
          }
          const list = server.list();
          if (list.length === 0) return void res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('no sources');
          const entries = list.map((s) => ({
            name: s.src,
            url: `webtorrent:?share=${encodeURIComponent(s.share)}&pwd=${encodeURIComponent(s.pwd)}`,
          }));
          // `streams` as seed 000 shapes the share list; `sources` (with go2rtc's `id`) as go2rtc's web UI reads it.
          return json(200, { streams: entries, sources: entries.map((e) => ({ id: e.name, ...e })) });
        }
        if (!src) throw new HttpError(400, 'src is required: the stream to share');
        if (req.method === 'POST') {
          if (existing) throw new HttpError(400, `${src} is already shared (DELETE it first)`);
          if (!streams.get(src)) throw new HttpError(404, `stream not found: ${src}`);
          const share = url.searchParams.get('share') || randomText(10);
          const pwd = url.searchParams.get('pwd') || randomText(10);
          if (share.length < MIN_SHARE_LENGTH)
            throw new HttpError(
              400,
              `share must have at least ${MIN_SHARE_LENGTH} characters (it names the share to every peer of the tracker)`,
            );
          if (pwd.length < MIN_PWD_LENGTH) throw new HttpError(400, `pwd must have at least ${MIN_PWD_LENGTH} characters`);
          if (server.list().some((s) => s.share === share)) throw new HttpError(400, `share ${share} is in use`);
          server.add({ share, pwd, src });
          return json(201, { share, pwd });
        }
        if (!existing) throw new HttpError(404, `no share of ${src}`);
        server.remove(existing.share);
        fromConfig = fromConfig.filter((s) => s !== existing);
        res.writeHead(200).end();
      },
    },
  ]);

  const local = createLocalTracker();
  const wss = new WebSocketServer({ noServer: true, maxPayload: 256 * 1024 });
  ctx.onClose(() => {
    for (const client of wss.clients) client.terminate();
    wss.close();
  });
  // Pages of other sites are refused, as on /api/ws: relays are tools and send no Origin.
  ctx.server.upgrade('/api/webtorrent', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (isCrossSiteRequest(req)) {
      socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => local.serve(ws));
  });
}
