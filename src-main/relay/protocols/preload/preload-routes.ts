import type { Document } from 'yaml';
import { isMap } from 'yaml';
import { HttpError } from '@main/platform/http/http-error';
import type { ProtocolContext } from '../protocol-context';
import { preloadQuery, Preloads } from './preloads';

/**
 * go2rtc's `preload:` section and `/api/preload`: GET lists the preloads, PUT `?src=<stream>&video&audio`
 * starts one and writes it to the config, DELETE `?src=` stops it and removes it from the config.
 */
export function registerPreload({ ctx, streams, logger }: ProtocolContext): Preloads {
  const preloads = new Preloads(streams, logger.child('preload'));
  let closed = false;
  // On the next turn: the relay module applies the same config's streams first.
  const sync = (section: unknown) => setImmediate(() => !closed && preloads.sync(section));
  sync(ctx.config.section('preload'));
  const unsubscribe = ctx.config.onChange((config) => sync(config.section('preload')));
  ctx.onClose(() => {
    closed = true;
    unsubscribe();
    preloads.close();
  });

  const persist = (name: string, query: string | undefined) =>
    ctx.config.update((doc: Document) => {
      if (query === undefined) {
        if (isMap(doc.get('preload'))) doc.deleteIn(['preload', name]);
        return;
      }
      if (!isMap(doc.get('preload'))) doc.set('preload', doc.createNode({}));
      doc.setIn(['preload', name], query);
    });

  ctx.http.add([
    {
      method: ['GET', 'PUT', 'DELETE'],
      path: '/api/preload',
      handler: async ({ req, res, url }) => {
        if (req.method === 'GET') {
          res.writeHead(200, { 'Content-Type': 'application/json' });
          res.end(JSON.stringify(preloads.list(), null, 2));
          return;
        }
        const name = url.searchParams.get('src') ?? '';
        if (name === '') throw new HttpError(400, 'src is required: the name of a stream');
        if (req.method === 'PUT') {
          if (!streams.get(name)) throw new HttpError(404, `stream not found: ${name}`);
          const query = preloadQuery(url.searchParams);
          // Started before the config is written, so the config's change finds it running. A
          // source that cannot be reached now is tried again; the preload stays.
          await preloads.add(name, query).catch(() => undefined);
          await persist(name, query);
          res.writeHead(200).end();
          return;
        }
        if (!preloads.remove(name)) throw new HttpError(404, `preload not found: ${name}`);
        await persist(name, undefined);
        res.writeHead(200).end();
      },
    },
  ]);
  return preloads;
}
