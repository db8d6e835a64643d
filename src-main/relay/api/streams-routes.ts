import type { ServerResponse } from 'node:http';
import type { EngineContext } from '../../engine/engine-context';
import { HttpError } from '../../platform/http/http-error';
import type { HttpRoute } from '../../platform/http/router';
import { redactSource } from '../core/redact-source';
import { SourceRejectedError, type StreamRegistry } from '../core/stream-registry';
import { persistStream } from '../streams-config';
import { mayReadSecrets } from './secret-readers';
import { streamsDot, type StreamGraph } from './streams-dot';

export interface StreamsApiDeps {
  streams: StreamRegistry;
  /** Plays `src` into the existing stream `dst`, or publishes stream `src` to the URL `dst`. */
  send: (src: string, dst: string) => Promise<void>;
}

/** The query keys that make GET /api/streams?src= a probe (go2rtc's, as Frigate sends them). */
const PROBE_KEYS = ['video', 'audio', 'microphone'];

/**
 * One stream as go2rtc shows it. Producer URLs are shown as written to callers that may read
 * secrets (Home Assistant compares them with the URL it added, to know whether to add it again),
 * masked to anyone else; a temporary stream (named by its URL) is always masked, its name too.
 */
function streamJson(streams: StreamRegistry, name: string, revealUrls: boolean) {
  const info = streams.get(name)!.info();
  const show = (url: string | undefined) => (url === undefined || (revealUrls && url !== name) ? url : redactSource(url));
  return {
    producers: info.producers.map((p) => ({
      ...p,
      url: show(p.url),
      ...('error' in p && typeof p.error === 'string' ? { error: redactSource(p.error) } : {}),
    })),
    consumers: info.consumers,
  };
}

const rejected = (error: unknown): never => {
  if (error instanceof SourceRejectedError) throw new HttpError(400, error.message);
  throw error;
};

/** /api/streams with go2rtc's query parameters, bodies and status codes, and its graph /api/streams.dot. */
export function streamsRoutes(ctx: EngineContext, deps: StreamsApiDeps): HttpRoute[] {
  const { streams } = deps;
  const json = (res: ServerResponse, body: unknown) => {
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify(body, null, 2));
  };
  const allStreams = (revealUrls: boolean) =>
    Object.fromEntries(streams.names().map((n) => [redactSource(n), streamJson(streams, n, revealUrls)]));

  /** Checks every source from the API, writes them to the config, then applies them. */
  const save = async (name: string, sources: string[]): Promise<void> => {
    try {
      for (const source of sources) streams.checkSource(source, 'api', name);
    } catch (error) {
      rejected(error);
    }
    await persistStream(ctx.config, name, sources);
    streams.set(name, sources);
  };

  return [
    // go2rtc's graph of producers and consumers (its web UI draws it); URLs always masked.
    {
      method: 'GET',
      path: '/api/streams.dot',
      handler: ({ res, url }) => {
        const wanted = url.searchParams.getAll('src');
        const names = wanted.length > 0 ? wanted.filter((n) => streams.get(n)) : streams.names();
        res.writeHead(200, { 'Content-Type': 'text/vnd.graphviz' });
        res.end(streamsDot(names.map((n) => [n, streamJson(streams, n, false)] as [string, StreamGraph])));
      },
    },
    {
      method: 'GET',
      path: '/api/streams',
      handler: async ({ req, res, url }) => {
        const query = url.searchParams;
        const src = query.get('src');
        const revealUrls = mayReadSecrets(ctx, req);
        if (src === null) return json(res, allStreams(revealUrls));
        const stream = streams.get(src);
        if (!stream) throw new HttpError(404, `stream not found: ${redactSource(src)}`);
        if (PROBE_KEYS.some((key) => query.has(key))) return json(res, await stream.probe(() => streamJson(streams, src, revealUrls)));
        return json(res, streamJson(streams, src, revealUrls));
      },
    },
    {
      method: 'PUT',
      path: '/api/streams',
      handler: async ({ req, res, url }) => {
        // Every src is a source, in order (Home Assistant adds [camera, "ffmpeg:<name>#audio=opus"]).
        const sources = url.searchParams.getAll('src').filter((s) => s !== '');
        // go2rtc answers a PUT without src with the stream list and changes nothing (Frigate sends one).
        if (sources.length === 0) return json(res, allStreams(mayReadSecrets(ctx, req)));
        await save(url.searchParams.get('name') || sources[0]!, sources);
        res.writeHead(200).end();
      },
    },
    {
      method: 'PATCH',
      path: '/api/streams',
      handler: async ({ res, url }) => {
        const name = url.searchParams.get('name');
        const src = url.searchParams.get('src');
        if (!name) throw new HttpError(400, 'name is required: the stream to update');
        if (!src) throw new HttpError(400, 'src is required: the new source URL');
        // An unknown name is created, as go2rtc does.
        await save(name, [src]);
        res.writeHead(200).end();
      },
    },
    {
      method: 'DELETE',
      path: '/api/streams',
      handler: async ({ res, url }) => {
        const src = url.searchParams.get('src');
        if (!src) throw new HttpError(400, 'src is required: the name of the stream to delete');
        // Deleting what is not there succeeds, as in go2rtc: the caller wanted it gone.
        if (!streams.get(src)) return void res.writeHead(200).end();
        await persistStream(ctx.config, src, undefined);
        streams.delete(src);
        res.writeHead(200).end();
      },
    },
    {
      method: 'POST',
      path: '/api/streams',
      handler: async ({ res, url }) => {
        const src = url.searchParams.get('src');
        const dst = url.searchParams.get('dst');
        if (!src) throw new HttpError(400, 'src is required');
        if (!dst) throw new HttpError(400, 'dst is required: a stream name or a destination URL');
        if (!streams.get(dst) && !streams.get(src))
          throw new HttpError(404, `neither ${redactSource(dst)} nor ${redactSource(src)} is a stream`);
        await deps.send(src, dst);
        res.writeHead(200).end();
      },
    },
  ];
}
