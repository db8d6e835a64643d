import type { ServerResponse } from 'node:http';
import type { EngineContext } from '../../engine/engine-context';
import { HttpError } from '../../platform/http/http-error';
import { SourceRejectedError, type StreamRegistry } from '../core/stream-registry';
import { redactSource } from '../core/stream';
import { persistStream } from '../streams-config';

export interface StreamsApiDeps {
  streams: StreamRegistry;
  /** Plays `src` into the existing stream `dst`, or publishes stream `src` to the URL `dst`. */
  send: (src: string, dst: string) => Promise<void>;
}

function streamJson(streams: StreamRegistry, name: string) {
  const info = streams.get(name)!.info();
  return {
    producers: info.producers.map((p) => ({ ...p, url: p.url ? redactSource(p.url) : p.url })),
    consumers: info.consumers,
  };
}

const rejected = (error: unknown): never => {
  if (error instanceof SourceRejectedError) throw new HttpError(400, error.message);
  throw error;
};

/** /api/streams with go2rtc's query parameters, bodies and status codes. */
export function registerStreamsRoutes(ctx: EngineContext, deps: StreamsApiDeps): void {
  const { streams } = deps;
  const json = (res: ServerResponse, body: unknown) => {
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify(body, null, 2));
  };

  /** Checks a source from the API, writes it to the config, then applies it. */
  const save = async (name: string, src: string): Promise<void> => {
    try {
      streams.checkSource(src, 'api');
    } catch (error) {
      rejected(error);
    }
    await persistStream(ctx.config, name, [src]);
    streams.set(name, [src]);
  };

  ctx.http.route(
    '/api/streams',
    async ({ req, res, url }) => {
      const src = url.searchParams.get('src');
      const name = url.searchParams.get('name');
      const dst = url.searchParams.get('dst');
      switch (req.method) {
        case 'GET': {
          if (src !== null) {
            if (!streams.get(src)) throw new HttpError(404, `stream not found: ${src}`);
            return json(res, streamJson(streams, src));
          }
          return json(res, Object.fromEntries(streams.names().map((n) => [n, streamJson(streams, n)])));
        }
        case 'PUT': {
          if (!src) throw new HttpError(400, 'src is required: the source URL of the new stream');
          await save(name || src, src);
          return void res.writeHead(200).end();
        }
        case 'PATCH': {
          if (!name) throw new HttpError(400, 'name is required: the stream to update');
          if (!src) throw new HttpError(400, 'src is required: the new source URL');
          if (!streams.get(name)) throw new HttpError(404, `stream not found: ${name}`);
          await save(name, src);
          return void res.writeHead(200).end();
        }
        case 'DELETE': {
          if (!src) throw new HttpError(400, 'src is required: the name of the stream to delete');
          if (!streams.get(src)) throw new HttpError(404, `stream not found: ${src}`);
          await persistStream(ctx.config, src, undefined);
          streams.delete(src);
          return void res.writeHead(200).end();
        }
        case 'POST': {
          if (!src) throw new HttpError(400, 'src is required');
          if (!dst) throw new HttpError(400, 'dst is required: a stream name or a destination URL');
          if (!streams.get(dst) && !streams.get(src)) throw new HttpError(404, `neither ${dst} nor ${src} is a stream`);
          await deps.send(src, dst);
          return void res.writeHead(200).end();
        }
        default:
          throw new HttpError(405, `method ${req.method} not allowed on /api/streams`);
      }
    },
  );
}
