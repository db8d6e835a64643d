import type { IncomingMessage, ServerResponse } from 'node:http';
import { ContractFailure } from '../../src-shared/contract/result';
import { allowedOriginFor, crossSiteCaller, isCrossSiteRequest, type AllowedOrigins } from '../platform/http/cross-origin';
import { HttpError } from '../platform/http/http-error';
import type { HttpRoute, RouteRequest } from '../platform/http/router';
import { contentDisposition } from '../relay/protocols/mp4/mp4-query';
import { RECORDINGS_TICKET_PATH } from '../../src-shared/contract/recordings';
import { Fmp4PartsError, retimedFragments, segmentParts } from './fmp4-parts';
import type { RecordingSettings } from './recordings-config';
import { parseOffsetMs, parseRecordingsQuery, RecordingsQueryError, type QueryRules } from './recordings-query';
import { segmentBytes } from './segment-bytes';
import type { RecordedSegment, SegmentCatalog, SegmentPlace } from './segment-catalog';
import { fragmentWindow, JoinError, joinPlan } from './segment-join';
import { segmentStart } from './segment-keys';
import { vodPlaylist } from './vod-playlist';

export interface RecordingsApiDeps {
  /** The recording of a stream as the config says it now. */
  settingsOf(stream: string): RecordingSettings | undefined;
  placeOf(settings: RecordingSettings): Promise<SegmentPlace>;
  catalog: SegmentCatalog;
  /** `api.origin`: other sites whose pages may read the API's answers. */
  allowedOrigins: AllowedOrigins;
  /** The console's tickets: `RECORDINGS_TICKET_PATH<ticket>/recordings.m3u8` and the rest, for its stream only. */
  ticketStream(ticket: string): string | undefined;
}

/** The API's paths; under a console ticket the same names follow `RECORDINGS_TICKET_PATH<ticket>/`. */
const RECORDINGS_PATHS = {
  list: 'recordings',
  playlist: 'recordings.m3u8',
  download: 'recordings.mp4',
  init: 'recordings/init.mp4',
  media: 'recordings/segment.m4s',
} as const;

const HOUR = 3_600_000;
/** The longest playlist and download: a day of video is one request, a month is not. */
const PLAYLIST_RANGE_MS = 24 * HOUR;
const DOWNLOAD_RANGE_MS = 6 * HOUR;
const LIST_RANGE_MS = 31 * 24 * HOUR;

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * The recordings API on the relay's HTTP API (behind its login, as every /api path): the
 * segments of a range, an HLS VOD playlist over them with its init and media parts served
 * through the relay, and a range joined into one MP4. A recording is private video: a page
 * of another site gets 403 (even an `<img>` or `<video>`, which send no Origin) unless
 * `api.origin` lets that site read.
 */
export function recordingsRoutes(deps: RecordingsApiDeps): HttpRoute[] {
  const answered = async (request: RouteRequest, handler: (request: RouteRequest) => Promise<void>) => {
    try {
      await handler(request);
    } catch (error) {
      if (error instanceof RecordingsQueryError) throw new HttpError(error.status, error.message);
      if (error instanceof JoinError) throw new HttpError(404, error.message);
      if (error instanceof Fmp4PartsError) throw new HttpError(502, `the segment in the bucket is not a readable MP4: ${error.message}`);
      // The storage account or its service: a bucket that is not there, keys refused, no answer.
      if (error instanceof ContractFailure) throw new HttpError(error.code === 'not_found' ? 404 : 502, error.message);
      throw error;
    }
  };
  const guarded = (handler: (request: RouteRequest) => Promise<void>) => async (request: RouteRequest) => {
    if (isCrossSiteRequest(request.req) && !allowedOriginFor(request.req, deps.allowedOrigins)) {
      throw new HttpError(
        403,
        `${crossSiteCaller(request.req)} may not read recordings: only the console, tools and sites listed in api.origin may`,
      );
    }
    await answered(request, handler);
  };
  // The console's own way in, whatever site its page is: a live ticket, and only for its stream.
  const ticketed = (handler: (request: RouteRequest) => Promise<void>) => async (request: RouteRequest) => {
    const stream = deps.ticketStream(request.params.ticket ?? '');
    if (stream === undefined) throw new HttpError(404, 'this recordings address expired or never existed; open the recording again');
    if (request.url.searchParams.get('src')?.trim() !== stream)
      throw new HttpError(403, `this address opens the recordings of ${stream} only`);
    // hls.js and an export read these with fetch from the desktop window's origin: the ticket,
    // not the origin, is what lets a reader in.
    const origin = request.req.headers.origin;
    if (origin) {
      request.res.setHeader('Access-Control-Allow-Origin', origin);
      request.res.setHeader('Vary', 'Origin');
    }
    await answered(request, handler);
  };
  const method = ['GET', 'HEAD'];

  /** The stream's recording and its segments in the range the query asks for. */
  async function segmentsOf(
    req: IncomingMessage,
    url: URL,
    rules: Omit<QueryRules, 'now'>,
  ): Promise<{
    settings: RecordingSettings;
    place: SegmentPlace;
    segments: RecordedSegment[];
    range?: { startMs: number; endMs: number };
  }> {
    const query = parseRecordingsQuery(url.searchParams, { ...rules, now: Date.now() });
    const settings = recordingOf(query.src);
    const place = await deps.placeOf(settings);
    const range = query.endMs !== undefined ? { startMs: query.startMs ?? 0, endMs: query.endMs } : undefined;
    return { settings, place, range, segments: await deps.catalog.list(place, range) };
  }

  function recordingOf(src: string): RecordingSettings {
    const settings = deps.settingsOf(src);
    if (!settings) throw new HttpError(404, `stream ${src.slice(0, 128)} has no recordings: add it under recordings: in the config`);
    return settings;
  }

  /** `src` and `key` of a part: the key must be exactly a segment key of that stream's prefix. */
  async function partOf(url: URL): Promise<{ place: SegmentPlace; key: string; bytes: Buffer }> {
    const src = url.searchParams.get('src')?.trim();
    const key = url.searchParams.get('key') ?? '';
    if (!src) throw new HttpError(400, 'src is required: the name of a recorded stream');
    const settings = recordingOf(src);
    if (segmentStart(settings.prefix, key) === undefined)
      throw new HttpError(400, `key must be a segment of ${src}: ${settings.prefix}YYYY-MM-DD/HH-MM-SS.mmmZ.mp4`);
    const place = await deps.placeOf(settings);
    return { place, key, bytes: await segmentBytes(place.client, place.bucket, key) };
  }

  const handlers: Array<[string, (request: RouteRequest) => Promise<void>]> = [
    [
      RECORDINGS_PATHS.list,
      async ({ req, res, url }) => {
        const { segments } = await segmentsOf(req, url, { startRequired: false, maxRangeMs: LIST_RANGE_MS });
        const body = { segments: segments.map((s) => ({ key: s.key, start: iso(s.startMs), end: iso(s.endMs), bytes: s.bytes })) };
        sendText(res, 200, 'application/json', JSON.stringify(body));
      },
    ],
    [
      RECORDINGS_PATHS.playlist,
      async ({ req, res, url }) => {
        const { settings, segments, range } = await segmentsOf(req, url, { startRequired: true, maxRangeMs: PLAYLIST_RANGE_MS });
        if (segments.length === 0)
          throw new JoinError(`nothing of ${settings.stream} was recorded between ${iso(range!.startMs)} and ${iso(range!.endMs)}`);
        const src = encodeURIComponent(settings.stream);
        const playlist = vodPlaylist(segments, {
          init: (key) => `recordings/init.mp4?src=${src}&key=${encodeURIComponent(key)}`,
          media: (key, offsetMs) => `recordings/segment.m4s?src=${src}&key=${encodeURIComponent(key)}&t=${offsetMs}`,
        });
        sendText(res, 200, 'application/vnd.apple.mpegurl', playlist);
      },
    ],
    [
      RECORDINGS_PATHS.init,
      async ({ res, url }) => {
        const { bytes } = await partOf(url);
        sendSegmentPart(res, bytes.subarray(0, segmentParts(bytes).initEnd));
      },
    ],
    [
      RECORDINGS_PATHS.media,
      async ({ res, url }) => {
        const offsetMs = parseOffsetMs(url.searchParams.get('t'));
        const { bytes } = await partOf(url);
        const parts = segmentParts(bytes);
        // Sequence numbers keep rising across segments: one a 10 ms of the playlist's timeline.
        sendSegmentPart(res, retimedFragments(bytes, parts, parts.fragments, offsetMs / 1000, Math.floor(offsetMs / 10) + 1));
      },
    ],
    [
      RECORDINGS_PATHS.download,
      async ({ req, res, url }) => {
        const { settings, place, segments, range } = await segmentsOf(req, url, { startRequired: true, maxRangeMs: DOWNLOAD_RANGE_MS });
        await sendJoined(req, res, { settings, place, segments, range: range! });
      },
    ],
  ];
  return handlers.flatMap(([path, handler]) => [
    { method, path: `/api/${path}`, handler: guarded(handler) },
    { method, path: `${RECORDINGS_TICKET_PATH}:ticket/${path}`, handler: ticketed(handler) },
  ]);
}

/** One MP4 of the range: the first segment's init segment, then every segment's fragments laid end to end. */
async function sendJoined(
  req: IncomingMessage,
  res: ServerResponse,
  job: { settings: RecordingSettings; place: SegmentPlace; segments: RecordedSegment[]; range: { startMs: number; endMs: number } },
): Promise<void> {
  const plan = joinPlan(job.segments, job.range.startMs, job.range.endMs);
  let offset = 0;
  let cut = 0;
  let sequence = 1;
  for (const [i, step] of plan.entries()) {
    const bytes = await segmentBytes(job.place.client, job.place.bucket, step.segment.key);
    const parts = segmentParts(bytes);
    const [first, end] = fragmentWindow(parts, step.fromSeconds, step.toSeconds);
    const fragments = parts.fragments.slice(first, end);
    if (i === 0) {
      const begin = fragments[0];
      cut = begin ? Math.min(...begin.tracks.map((t) => t.baseTime / parts.timescales.get(t.trackId)!)) : 0;
      const name = `${job.settings.stream}-${iso(plan[0]!.segment.startMs + cut * 1000).replace(/[:.]/g, '-')}.mp4`;
      res.writeHead(200, { 'Content-Type': 'video/mp4', 'Content-Disposition': contentDisposition(name)!, 'Cache-Control': 'no-store' });
      if (req.method === 'HEAD') return void res.end();
      res.write(bytes.subarray(0, parts.initEnd));
    }
    if (res.destroyed) return;
    res.write(retimedFragments(bytes, parts, fragments, offset - cut, sequence));
    sequence += fragments.length;
    offset += step.segment.durationMs / 1000;
  }
  res.end();
}

function sendText(res: ServerResponse, status: number, type: string, body: string): void {
  res.writeHead(status, { 'Content-Type': `${type}; charset=utf-8`, 'Cache-Control': 'no-store' });
  res.end(body);
}

/** A segment's parts never change once uploaded. */
function sendSegmentPart(res: ServerResponse, bytes: Uint8Array): void {
  res.writeHead(200, { 'Content-Type': 'video/mp4', 'Content-Length': bytes.length, 'Cache-Control': 'private, max-age=86400' });
  res.end(bytes);
}
