import { HttpError } from '@main/platform/http/http-error';
import type { MediaRequest } from '../../core/negotiation';
import { requestsFromQuery } from '../rtsp/media-query';
import { ROTATIONS, type Rotation } from '../../media/containers/fmp4/rotation';

/** Without `mp4`, `video` or `audio` in the query, go2rtc's MP4 takes H.264/H.265 video and AAC audio. */
const DEFAULT_REQUESTS: MediaRequest[] = [
  { kind: 'video', codecs: ['H264', 'H265'] },
  { kind: 'audio', codecs: ['MPEG4-GENERIC'] },
];

/** The medias an MP4 output asks for: the query's filters (as RTSP and HLS read them), or the default. */
export function mp4Requests(query: URLSearchParams): MediaRequest[] {
  const requests = requestsFromQuery(query);
  return requests.length > 0 ? requests : DEFAULT_REQUESTS;
}

/** `duration=N`: seconds of media, then the body ends. Empty or 0 means no limit, as in go2rtc. */
export function parseDuration(value: string | null): number | undefined {
  if (value === null || value.trim() === '' || value.trim() === '0') return undefined;
  const seconds = Number(value);
  if (!Number.isFinite(seconds) || seconds <= 0) throw new HttpError(400, `duration must be a number of seconds above 0, not "${value}"`);
  return seconds;
}

/**
 * `filename=x` → `Content-Disposition: attachment`. Quotes, backslashes and control characters
 * cannot go into the quoted form, so they become `_` there; a name beyond ASCII also goes in
 * `filename*` (RFC 6266), which browsers prefer.
 */
export function contentDisposition(filename: string | null): string | undefined {
  if (!filename) return undefined;
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, '_');
  const extended = ascii === filename ? '' : `; filename*=UTF-8''${encodeURIComponent(filename)}`;
  return `attachment; filename="${ascii}"${extended}`;
}

/** `rotate=90|180|270`: players turn the picture (written in the video track's matrix, as go2rtc does). */
export function parseRotate(value: string | null): Rotation | undefined {
  if (value === null || value.trim() === '') return undefined;
  const degrees = ROTATIONS.find((r) => String(r) === value.trim());
  if (degrees === undefined) throw new HttpError(400, `rotate must be 90, 180 or 270 (degrees clockwise), not "${value}"`);
  return degrees || undefined;
}

/**
 * Chromium's engine, whatever it calls itself: `Chrome/` (Chrome, Edge, Opera, Electron, Android's
 * WebView), `HeadlessChrome/` (headless Chromium, the console's own kiosk and test runs) and
 * `Chromium/`. All of them also say `Safari/`, and all of them play a live MP4.
 */
const CHROMIUM = /[ ;(](?:Headless)?Chrom(?:e|ium)\//;

/**
 * Safari cannot play a live MP4 over one long response, so go2rtc sends it to the HLS form of the
 * same stream (fMP4 segments); a download with `duration` stays MP4. The query is kept. Every
 * browser on iOS is WebKit under another name (`CriOS/`, `FxiOS/`) and is sent along too.
 */
export function safariRedirect(userAgent: string | undefined, query: URLSearchParams): string | undefined {
  const ua = userAgent ?? '';
  if (!ua.includes(' Safari/') || CHROMIUM.test(ua) || query.has('duration')) return undefined;
  const target = new URLSearchParams(query);
  if (!target.has('mp4')) target.append('mp4', '');
  return `stream.m3u8?${target.toString().replace(/=(&|$)/g, '$1')}`;
}
