import { HttpError } from '@main/platform/http/http-error';
import type { StreamRegistry } from '../../core/stream-registry';

/**
 * `POST /stream/{id}/add` as Home Assistant sends it: `{"name": id, "channels": {"0": {"url":
 * "rtsp://..."}}}`. The name defaults to the id in the path.
 */
export function parseAddRequest(body: string, id: string): { name: string; source: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    throw new HttpError(400, 'the body is not JSON: send {"name": "<id>", "channels": {"0": {"url": "rtsp://..."}}}');
  }
  const request = parsed as { name?: unknown; channels?: { '0'?: { url?: unknown } } } | null;
  const source = request?.channels?.['0']?.url;
  if (typeof source !== 'string' || source.trim() === '') throw new HttpError(400, 'channels."0".url is required: the camera\'s RTSP URL');
  const name = typeof request?.name === 'string' && request.name !== '' ? request.name : id;
  return { name, source };
}

/**
 * The relay's stream a URL points at, if it does: an RTSP URL whose path is one of the relay's
 * streams (the camera as Home Assistant knows it from go2rtc), or a stream's bare name.
 */
export function linkedStream(source: string, streams: Pick<StreamRegistry, 'get'>): string | undefined {
  if (streams.get(source)) return source;
  let url: URL;
  try {
    url = new URL(source);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'rtsp:' && url.protocol !== 'rtsps:') return undefined;
  const name = decodeURIComponent(url.pathname.slice(1));
  return name && streams.get(name) ? name : undefined;
}

/** The SDP offer from the form field `data` (base64), URL-encoded or multipart. */
export async function parseOfferForm(body: string, contentType: string): Promise<string> {
  let data: ReturnType<FormData['get']>;
  try {
    const type = contentType.toLowerCase().startsWith('multipart/form-data') ? contentType : 'application/x-www-form-urlencoded';
    data = (await new Response(body, { headers: { 'Content-Type': type } }).formData()).get('data');
  } catch {
    throw new HttpError(400, 'the body is not a form: send data=<base64 SDP offer>');
  }
  if (typeof data !== 'string' || data === '') throw new HttpError(400, 'the form field data is required: the base64 SDP offer');
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(data.replace(/\s/g, ''))) throw new HttpError(400, 'the form field data is not base64');
  return Buffer.from(data, 'base64').toString('utf8');
}
