import WebSocket from 'ws';
import { redactSource } from '@main/relay/core/redact-source';
import type { RelayTarget } from './relay-http';

/** Every codec MSE names that go2rtc-compatible relays may answer, so any source's codecs come back. */
const MSE_CODECS = 'avc1.640029,avc1.64002A,avc1.640033,hvc1.1.6.L153.B0,mp4a.40.2,mp4a.40.5,flac,opus';
const PROBE_TIMEOUT_MS = 10_000;

/** An MSE codec (`avc1.64001F`, `mp4a.40.2`) as the kind and codec of go2rtc's media lines. */
function mediaOf(codec: string): string {
  const c = codec.trim().toLowerCase();
  if (c.startsWith('avc1')) return 'video, recvonly, H264';
  if (c.startsWith('hvc1') || c.startsWith('hev1')) return 'video, recvonly, H265';
  if (c.startsWith('mp4a')) return 'audio, recvonly, MPEG4-GENERIC';
  if (c === 'opus') return 'audio, recvonly, OPUS';
  if (c === 'flac') return 'audio, recvonly, FLAC';
  return `unknown, recvonly, ${c.slice(0, 32).toUpperCase()}`;
}

/** `video/mp4; codecs="avc1.64001F,mp4a.40.2"` as media lines. */
export function mediasOfMimeType(mime: string): string[] {
  const codecs = /codecs="([^"]*)"/.exec(mime)?.[1] ?? '';
  return codecs
    .split(',')
    .filter((c) => c.trim() !== '')
    .slice(0, 16)
    .map(mediaOf);
}

/**
 * Dials a source URL once on a remote relay, saving nothing. Neither go2rtc nor this app probes
 * a URL on `/api/streams` (that takes stream names), but both open a URL given as `src` of
 * their WebSocket API as a temporary stream: asking it for MSE answers the source's codecs,
 * then the socket closes and the temporary stream with it.
 */
export function probeThroughMse(target: RelayTarget, source: string): Promise<{ medias: string[]; error?: string }> {
  const url = new URL(`${target.url.replace(/^http/, 'ws')}/api/ws`);
  url.searchParams.set('src', source);
  const headers: Record<string, string> = {};
  if (target.login) headers.Authorization = `Basic ${Buffer.from(`${target.login.username}:${target.login.password}`).toString('base64')}`;
  return new Promise((resolve) => {
    const ws = new WebSocket(url, { headers, maxPayload: 64 * 1024, followRedirects: false, handshakeTimeout: 3_000 });
    let settled = false;
    const done = (result: { medias: string[]; error?: string }) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      ws.terminate();
      resolve(result.error ? { ...result, error: redactSource(result.error) } : result);
    };
    const timer = setTimeout(() => done({ medias: [], error: 'the source did not answer in time' }), PROBE_TIMEOUT_MS);
    ws.on('open', () => ws.send(JSON.stringify({ type: 'mse', value: MSE_CODECS })));
    ws.on('message', (data, binary) => {
      if (binary) return;
      let message: { type?: unknown; value?: unknown };
      try {
        message = JSON.parse(String(data)) as typeof message;
      } catch {
        return done({ medias: [], error: 'the relay answered something else than its WebSocket API' });
      }
      if (message.type === 'mse' && typeof message.value === 'string') {
        const medias = mediasOfMimeType(message.value);
        return done(medias.length > 0 ? { medias } : { medias, error: 'the source answered with no media' });
      }
      if (message.type === 'error') done({ medias: [], error: String(message.value).slice(0, 300) });
    });
    ws.on('unexpected-response', (_req, res) => done({ medias: [], error: `the relay refused the probe (HTTP ${res.statusCode})` }));
    ws.on('error', (error) => done({ medias: [], error: error.message.slice(0, 300) }));
    ws.on('close', () => done({ medias: [], error: 'the relay closed the probe without an answer' }));
  });
}
