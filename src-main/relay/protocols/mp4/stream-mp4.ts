import { HttpError } from '@main/platform/http/http-error';
import type { RouteRequest } from '@main/platform/http/router';
import type { MediaFrame } from '../../core/media';
import { attachFrameOutput, type FrameOutput } from '../../media/frames/attach-output';
import { createFmp4LiveWriter, type Fmp4LiveWriter } from '../../media/containers/fmp4/live-writer';
import { KEYFRAME_TIMEOUT_MS, MAX_BUFFERED_BYTES, type Mp4Deps } from './mp4-deps';
import { contentDisposition, mp4Requests, parseDuration, parseRotate, safariRedirect } from './mp4-query';
import { mp4Tracks, type Mp4Track } from './mp4-tracks';
import { parameterSetKey } from '../../media/frames/keyframe-parameter-sets';

/** With `duration`, a source that stalls still ends the file this long after the wall-clock duration. */
const DURATION_GRACE_MS = 5_000;

/**
 * GET /api/stream.mp4?src=: fragmented MP4 for as long as the client stays (or `duration`
 * seconds of media). The first fragment is the cached keyframe, at once; then a fragment per
 * video frame. A keyframe whose SPS names another picture (the camera came back at another size) ends the
 * response: one init segment only ever describes frames of one picture size. Errors
 * (400/404/503, a 400 for codecs MP4 cannot carry) come before any byte of the body; a client
 * that leaves lets go of the stream at once. HEAD answers the same headers. Browsers play it
 * progressively (Chromium in a <video> or a tab); Safari is sent to HLS (see mp4-query).
 */
export async function serveStreamMp4(deps: Mp4Deps, { req, res, url }: RouteRequest): Promise<void> {
  const query = url.searchParams;
  const redirect = safariRedirect(req.headers['user-agent'], query);
  if (redirect) return void res.writeHead(301, { Location: redirect }).end();
  const src = query.get('src') ?? '';
  const duration = parseDuration(query.get('duration'));
  const rotate = parseRotate(query.get('rotate'));
  const disposition = contentDisposition(query.get('filename'));
  const maxBuffered = deps.maxBufferedBytes ?? MAX_BUFFERED_BYTES;
  const keyframeTimeout = deps.keyframeTimeoutMs ?? KEYFRAME_TIMEOUT_MS;

  // Assigned once attached; finish() may run before that (the client leaves while the source dials).
  let output: FrameOutput | undefined = undefined;
  let tracks: Mp4Track[] = [];
  let writer: Fmp4LiveWriter | undefined;
  /** Frames that arrive while the stream attaches us (the GOP cache), before the tracks are all known. */
  const early: Array<{ index: number; frame: MediaFrame; at: number }> = [];
  const timers: NodeJS.Timeout[] = [];
  let finished = false;
  let settle!: (error?: Error) => void;
  const done = new Promise<void>((resolve, reject) => (settle = (error) => (error ? reject(error) : resolve())));
  void done.catch(() => undefined); // awaited by the router; this only keeps an early end from going unhandled

  function finish(error?: Error): void {
    if (finished) return;
    finished = true;
    for (const timer of timers) clearTimeout(timer);
    output?.release();
    if (error && !res.headersSent && !res.destroyed) return settle(error); // the router answers with it
    if (error) deps.logger.warn('mp4 viewer ended', { src, error: error.message });
    if (!res.writableEnded) res.end();
    settle();
  }

  function send(chunks: Uint8Array[]): void {
    if (chunks.length === 0 || finished) return;
    if (!res.headersSent) {
      // A live stream has no byte positions: a Range (browsers send `bytes=0-`) gets the whole
      // stream from now, as go2rtc answers, and `none` tells the player not to seek by bytes.
      res.writeHead(200, {
        'Content-Type': writer!.muxer.contentType(),
        'Cache-Control': 'no-cache',
        'Accept-Ranges': 'none',
        ...(disposition ? { 'Content-Disposition': disposition } : {}),
      });
      if (req.method === 'HEAD') return finish();
      timers.forEach(clearTimeout); // the keyframe came
      if (duration !== undefined) timers.push(setTimeout(() => finish(), duration * 1000 + DURATION_GRACE_MS));
    }
    // A client that does not read: drop frames up to the next keyframe instead of buffering them.
    if (res.writableLength > maxBuffered) return writer!.resync();
    for (const chunk of chunks) {
      res.write(chunk);
      output?.consumer.countSent(chunk.length);
    }
  }

  function deliver(index: number, frame: MediaFrame, at: number): void {
    if (finished || !writer) return;
    if (pictureChanged(index, frame)) {
      // The init segment describes the old picture: a player must not get frames of another
      // size under it. The response ends cleanly at the last frame of the old one; a player
      // that opens it again gets a new init segment.
      send(writer.flush());
      deps.logger.info('mp4 viewer ended: the source changed its parameter sets', { src });
      return finish();
    }
    try {
      for (const converted of tracks[index]!.convert(frame)) send(writer.push(index, converted, at));
      if (writer.done) {
        send(writer.flush());
        finish();
      }
    } catch (error) {
      finish(new HttpError(502, `${src}: ${(error as Error).message}`));
    }
  }

  /** Per video track, the SPS (and VPS) its frames were written with so far. */
  const parameterSets = new Map<number, string>();
  function pictureChanged(index: number, frame: MediaFrame): boolean {
    const track = tracks[index]!;
    if (track.kind !== 'video' || !frame.keyframe) return false;
    const key = parameterSetKey(track.codec.name, frame.data);
    if (key === undefined) return false;
    const before = parameterSets.get(index);
    parameterSets.set(index, key);
    return before !== undefined && before !== key && writer!.started;
  }

  res.on('close', () => finish()); // the client left (or the reply ended)

  output = await attachFrameOutput(deps, {
    src: query.get('src'),
    format: 'mp4',
    request: req,
    requests: mp4Requests(query),
    onFrame: (track, frame) =>
      writer ? deliver(track.index, frame, Date.now()) : early.push({ index: track.index, frame, at: Date.now() }),
    onClose: (reason) => finish(new HttpError(503, `${src}: the stream ended before its first keyframe (${reason})`)),
  });
  if (finished) {
    output.release();
    return done;
  }
  try {
    tracks = mp4Tracks(output.consumer.tracks).map((t) => (t.kind === 'video' && rotate ? { ...t, rotate } : t));
    writer = createFmp4LiveWriter({ tracks, duration });
  } catch (error) {
    finish(error instanceof HttpError ? error : new HttpError(400, (error as Error).message));
    return done;
  }
  timers.push(setTimeout(() => finish(new HttpError(503, `${src}: no keyframe came within ${keyframeTimeout / 1000} s`)), keyframeTimeout));
  for (const { index, frame, at } of early.splice(0)) deliver(index, frame, at);
  return done;
}
