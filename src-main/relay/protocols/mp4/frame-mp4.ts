import { HttpError } from '@main/platform/http/http-error';
import type { RouteRequest } from '@main/platform/http/router';
import type { MediaFrame } from '../../core/media';
import { attachFrameOutput } from '../../media/frames/attach-output';
import type { FrameTrack } from '../../media/frames/frame-consumer';
import { createFmp4Muxer } from '../../media/containers/fmp4/muxer';
import { KEYFRAME_TIMEOUT_MS, type Mp4Deps } from './mp4-deps';
import { contentDisposition } from './mp4-query';

/**
 * GET /api/frame.mp4?src=: an MP4 of one picture, the init segment and the stream's last
 * keyframe (from the GOP cache, so at once), with a Content-Length (Safari shows nothing
 * without one). H.264 or H.265 only, as in go2rtc; `filename=` makes it a download.
 */
export async function serveFrameMp4(deps: Mp4Deps, { req, res, url }: RouteRequest): Promise<void> {
  const query = url.searchParams;
  const src = query.get('src') ?? '';
  const disposition = contentDisposition(query.get('filename'));
  let picture: { bytes: Uint8Array; contentType: string } | undefined;
  let failure: Error | undefined;
  let clientGone = false;
  let wake = () => undefined as void;

  function onFrame(track: FrameTrack, frame: MediaFrame): void {
    if (picture || failure || track.kind !== 'video' || !frame.keyframe) return;
    try {
      const muxer = createFmp4Muxer([{ kind: 'video', codec: track.codec }]);
      muxer.learn(0, frame);
      const init = muxer.init();
      if (!init) return; // no parameter sets in the SDP or this keyframe: the next may have them
      picture = { bytes: Buffer.concat([init, muxer.fragment([{ track: 0, frame }])]), contentType: muxer.contentType() };
    } catch (error) {
      failure = new HttpError(502, `${src}: ${(error as Error).message}`);
    }
    wake();
  }

  res.on('close', () => {
    clientGone = true;
    wake();
  });
  const output = await attachFrameOutput(deps, {
    src: query.get('src'),
    format: 'mp4',
    request: req,
    requests: [{ kind: 'video', codecs: ['H264', 'H265'] }],
    onFrame,
    onClose: (reason) => {
      failure ??= new HttpError(503, `${src}: the stream ended before a keyframe came (${reason})`);
      wake();
    },
  });
  try {
    if (!picture && !failure && !clientGone) {
      const timeout = deps.keyframeTimeoutMs ?? KEYFRAME_TIMEOUT_MS;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          failure = new HttpError(503, `${src}: no keyframe came within ${timeout / 1000} s`);
          resolve();
        }, timeout);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
    if (clientGone) return;
    if (failure || !picture) throw failure ?? new HttpError(503, `${src}: no keyframe`);
    output.consumer.countSent(picture.bytes.length);
  } finally {
    output.release();
  }
  res.writeHead(200, {
    'Content-Type': picture.contentType,
    'Content-Length': picture.bytes.length,
    'Cache-Control': 'no-cache',
    ...(disposition ? { 'Content-Disposition': disposition } : {}),
  });
  res.end(req.method === 'HEAD' ? undefined : picture.bytes);
}
