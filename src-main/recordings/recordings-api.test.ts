import qiniu from 'qiniu';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEngine, type TestEngine } from '../engine/test-engine';
import { relayModule } from '../relay/relay-module';
import { createStorageClientModule } from '../storage/client/storage-client-module';
import { storageEmulatorModule } from '../storage/emulator/storage-emulator-module';
import { segmentParts } from './fmp4-parts';
import { recordingsModule } from './recordings-module';
import { metadataHeaders } from './segment-meta';
import { segmentKey } from './segment-keys';
import { createRunWriter, type SegmentSummary, type WriterEvent } from './segment-writer';
import { cameraFrames } from './test-support/camera-frames';

// The recordings API over segments another console uploaded (the official SDK, metadata and
// all): listing from the bucket alone, the VOD playlist and its parts, the joined download,
// and what other sites' pages and bad input get. The recording itself is in recordings-chromium.interop.test.ts.

const AK = 'rec-api-ak';
const SK = 'rec-api-sk-secret';
const T0 = Date.UTC(2026, 10, 27, 8, 0, 0);

/** Three 4 s segments of a camera, as the recorder writes them. */
function recorded(): Array<{ bytes: Buffer; summary: SegmentSummary }> {
  const { tracks, frames } = cameraFrames(12, { at: T0 - 80 });
  const writer = createRunWriter({ tracks, segmentMs: 4_000 });
  const out: Array<{ bytes: Buffer; summary: SegmentSummary }> = [];
  let chunks: Uint8Array[] = [];
  const apply = (events: readonly WriterEvent[]) => {
    for (const e of events) {
      if (e.kind === 'open') chunks = [];
      else if (e.kind === 'data') chunks.push(...e.parts);
      else out.push({ bytes: Buffer.concat(chunks), summary: e.segment });
    }
  };
  for (const f of frames) apply(writer.push(f.track, f.frame, f.arrivalMs));
  apply(writer.finish());
  return out;
}

let running: TestEngine;
let api: string;
const segments = recorded();

async function putSegments(port: number, bucket: string, prefix: string): Promise<void> {
  const host = `127.0.0.1:${port}`;
  const config = new qiniu.conf.Config({ zone: new qiniu.conf.Zone([host], [host], host, host, host, host), useHttpsDomain: false });
  const mac = new qiniu.auth.digest.Mac(AK, SK);
  for (const { bytes, summary } of segments) {
    const key = segmentKey(prefix, summary.startMs);
    const token = new qiniu.rs.PutPolicy({ scope: `${bucket}:${key}` }).uploadToken(mac);
    const extra = new qiniu.form_up.PutExtra(undefined, undefined, 'video/mp4', undefined, undefined, metadataHeaders(summary, 'cam'));
    const { resp } = await new qiniu.form_up.FormUploader(config).put(token, key, bytes, extra);
    expect(resp.statusCode).toBe(200);
  }
}

beforeAll(async () => {
  running = await startTestEngine({
    modules: [relayModule, storageEmulatorModule, createStorageClientModule(), recordingsModule],
    config: [
      'data_dir: ./data',
      'api:\n  listen: 127.0.0.1:0',
      'rtsp:\n  listen: ""',
      'webrtc:\n  listen: 127.0.0.1:0',
      'log:\n  level: error',
      'storage:\n  emulator:\n    listen: 127.0.0.1:0\n    accounts:',
      `      - access_key: ${AK}\n        secret_key: ${SK}\n        buckets:\n          - name: rec\n            domains: [rec.test]\n          - name: vault\n            private: true\n            domains: [vault.test]`,
      // No stream `cam` in streams: nothing records here; the bucket already holds its segments.
      'recordings:\n  cam:\n    bucket: rec\n    segment: 4s\n  safe:\n    bucket: vault\n    prefix: safe/',
      '',
    ].join('\n'),
  });
  api = running.engine.url;
  const port = Number(new URL(running.engine.context.addresses.get('storage-emulator')!).port);
  await putSegments(port, 'rec', 'recordings/cam/');
  await putSegments(port, 'vault', 'safe/');
}, 30_000);
afterAll(() => running?.stop());

const iso = (ms: number) => new Date(ms).toISOString();
const get = (path: string, headers: Record<string, string> = {}) => fetch(`${api}${path}`, { headers });

describe('recordings API', () => {
  it('lists the segments of a range from the bucket, oldest first, with their times and sizes', async () => {
    const answer = await get(`/api/recordings?src=cam&start=${iso(T0 + 5_000)}&end=${iso(T0 + 20_000)}`);
    expect(answer.status).toBe(200);
    const { segments: listed } = (await answer.json()) as { segments: Array<{ key: string; start: string; end: string; bytes: number }> };
    expect(listed).toEqual(
      segments.slice(1).map(({ bytes, summary }) => ({
        key: segmentKey('recordings/cam/', summary.startMs),
        start: iso(summary.startMs),
        end: iso(summary.endMs),
        bytes: bytes.length,
      })),
    );
    expect(listed[0]).toMatchObject({
      key: 'recordings/cam/2026-11-27/08-00-04.000Z.mp4',
      start: '2026-11-27T08:00:04.000Z',
      end: '2026-11-27T08:00:08.000Z',
    });
    const all = (await (await get('/api/recordings?src=cam')).json()) as { segments: unknown[] };
    expect(all.segments).toHaveLength(3);
  });

  it('serves a VOD playlist whose init and media parts play as one timeline', async () => {
    const answer = await get(`/api/recordings.m3u8?src=cam&start=${iso(T0)}&end=${iso(T0 + 12_000)}`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^application\/vnd\.apple\.mpegurl/);
    const playlist = await answer.text();
    expect(playlist).toMatch(/#EXT-X-PLAYLIST-TYPE:VOD\n/);
    expect(playlist.trimEnd().endsWith('#EXT-X-ENDLIST')).toBe(true);
    const init = /#EXT-X-MAP:URI="([^"]+)"/.exec(playlist)![1]!;
    const media = [...playlist.matchAll(/^recordings\/segment\.m4s\?.*$/gm)].map((m) => m[0]);
    expect(media).toHaveLength(3);
    const initBytes = Buffer.from(await (await get(`/api/${init}`)).arrayBuffer());
    expect(initBytes.equals(segments[0]!.bytes.subarray(0, segmentParts(segments[0]!.bytes).initEnd))).toBe(true);
    const parts = await Promise.all(media.map(async (url) => Buffer.from(await (await get(`/api/${url}`)).arrayBuffer())));
    const whole = segmentParts(Buffer.concat([initBytes, ...parts]));
    const keyframes = whole.fragments.filter((f) => f.keyframe).map((f) => f.tracks.find((t) => t.trackId === 1)!.baseTime / 90000);
    expect(keyframes).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
  });

  it('joins a range into one MP4, cut at keyframes, its timeline from 0', async () => {
    const answer = await get(`/api/recordings.mp4?src=cam&start=${iso(T0 + 2_500)}&end=${iso(T0 + 9_500)}`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-disposition')).toBe('attachment; filename="cam-2026-11-27T08-00-02-000Z.mp4"');
    const file = segmentParts(Buffer.from(await answer.arrayBuffer()));
    const keyframes = file.fragments.filter((f) => f.keyframe).map((f) => f.tracks.find((t) => t.trackId === 1)!.baseTime / 90000);
    // From the keyframe at 2 s to the one at 10 s: 8 s of video.
    expect(keyframes).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });

  it('reads a private bucket through the relay: a player needs no signed address', async () => {
    const { segments: listed } = (await (await get('/api/recordings?src=safe')).json()) as { segments: Array<{ key: string }> };
    expect(listed.map((s) => s.key)).toEqual(segments.map((s) => segmentKey('safe/', s.summary.startMs)));
    const answer = await get(`/api/recordings/init.mp4?src=safe&key=${encodeURIComponent(listed[0]!.key)}`);
    expect(answer.status).toBe(200);
    expect(
      Buffer.from(await answer.arrayBuffer())
        .subarray(4, 8)
        .toString(),
    ).toBe('ftyp');
  });

  it('refuses pages of other sites on every path, even without Origin', async () => {
    const key = encodeURIComponent(segmentKey('recordings/cam/', T0));
    const range = `start=${iso(T0)}&end=${iso(T0 + 4_000)}`;
    for (const path of [
      `/api/recordings?src=cam`,
      `/api/recordings.m3u8?src=cam&${range}`,
      `/api/recordings.mp4?src=cam&${range}`,
      `/api/recordings/init.mp4?src=cam&key=${key}`,
      `/api/recordings/segment.m4s?src=cam&key=${key}`,
    ]) {
      const byVideoTag = await get(path, { 'Sec-Fetch-Site': 'cross-site', 'Sec-Fetch-Dest': 'video' });
      expect([path, byVideoTag.status]).toEqual([path, 403]);
      expect(await byVideoTag.text()).toMatch(/a page of another site may not read recordings/);
      expect((await get(path, { Origin: 'http://evil.example' })).status).toBe(403);
      expect((await get(path, { Referer: 'http://evil.example/page' })).status).toBe(403);
      // The console's own page and tools (no browser headers) pass.
      expect((await get(path, { 'Sec-Fetch-Site': 'same-origin' })).status).toBe(200);
    }
  });

  it('answers bad input with a 4xx that says what is wrong, and reads no other object', async () => {
    const cases: Array<[string, number, RegExp]> = [
      ['/api/recordings', 400, /src is required/],
      ['/api/recordings?src=nobody', 404, /stream nobody has no recordings/],
      ['/api/recordings?src=rtsp://10.0.0.5/live', 404, /has no recordings/],
      ['/api/recordings.m3u8?src=cam', 400, /start is required/],
      ['/api/recordings.m3u8?src=cam&start=tomorrow', 400, /start must be a time in ISO 8601/],
      [`/api/recordings.m3u8?src=cam&start=${iso(T0 + 3_600_000)}&end=${iso(T0 + 7_200_000)}`, 404, /nothing of cam was recorded between/],
      [`/api/recordings.mp4?src=cam&start=${iso(T0)}&end=${iso(T0 + 7 * 3_600_000)}`, 400, /at most 6 hours/],
      [
        '/api/recordings/init.mp4?src=cam&key=recordings%2Fcam%2F..%2F..%2Fsafe%2F2026-11-27%2F08-00-00.000Z.mp4',
        400,
        /key must be a segment of cam/,
      ],
      [`/api/recordings/init.mp4?src=cam&key=${encodeURIComponent(segmentKey('safe/', T0))}`, 400, /key must be a segment of cam/],
      ['/api/recordings/segment.m4s?src=cam&key=README.txt', 400, /key must be a segment of cam: recordings\/cam\/YYYY-MM-DD/],
      [
        `/api/recordings/segment.m4s?src=cam&key=${encodeURIComponent(segmentKey('recordings/cam/', T0))}&t=-5`,
        400,
        /t must be a whole number/,
      ],
      [
        `/api/recordings/segment.m4s?src=cam&key=${encodeURIComponent(segmentKey('recordings/cam/', T0 + 1))}`,
        404,
        /is not in the bucket rec/,
      ],
    ];
    for (const [path, status, message] of cases) {
      const answer = await get(path);
      expect([path, answer.status]).toEqual([path, status]);
      expect(await answer.text()).toMatch(message);
    }
    expect((await fetch(`${api}/api/recordings?src=cam`, { method: 'DELETE' })).status).toBe(405);
  });

  it('gives the console each stream state and the same listing through the recordings service', async () => {
    const status = await running.engine.services.call('recordings', 'status', undefined);
    expect(status).toMatchObject({
      ok: true,
      value: [
        {
          stream: 'cam',
          state: 'waiting',
          message: expect.stringMatching(/there is no stream cam in streams/),
          bucket: 'rec',
          prefix: 'recordings/cam/',
          schedule: 'always',
          spooled: 0,
        },
        { stream: 'safe' },
      ],
    });
    const listed = await running.engine.services.call('recordings', 'list', { stream: 'cam', startMs: T0, endMs: T0 + 8_000 });
    expect(listed).toMatchObject({
      ok: true,
      value: { segments: [{ startMs: T0, endMs: T0 + 4000, durationMs: 4000 }, { startMs: T0 + 4000 }] },
    });
    expect(await running.engine.services.call('recordings', 'list', { stream: 'cam', startMs: T0, endMs: T0 - 1 })).toMatchObject({
      ok: false,
      error: { code: 'invalid_input' },
    });
  });

  it("opens one stream's playback and export to the console's page of any site through a ticket", async () => {
    const answer = await running.engine.services.call('recordings', 'playbackTicket', { stream: 'cam' });
    if (!answer.ok) throw new Error(answer.error.message);
    const ticket = { value: answer.value as { path: string } };
    expect(ticket.value.path).toMatch(/^\/console\/recordings\/[\w-]{24}\/$/);
    // The desktop window's page (app://console) is another site to the API: the ticket lets it in.
    const desktop = { 'Sec-Fetch-Site': 'cross-site', Origin: 'app://console' };
    const range = `start=${iso(T0)}&end=${iso(T0 + 8_000)}`;
    const playlist = await get(`${ticket.value.path}recordings.m3u8?src=cam&${range}`, desktop);
    expect(playlist.status).toBe(200);
    expect(playlist.headers.get('access-control-allow-origin')).toBe('app://console');
    // The playlist's parts are relative: they resolve under the ticket's path, and play from there.
    const parts = [...(await playlist.text()).matchAll(/(?:URI="|^)(recordings\/[^"\n]+)/gm)].map((m) => m[1]!);
    expect(parts.length).toBe(3);
    for (const part of parts) {
      const answer = await get(`${ticket.value.path}${part}`, desktop);
      expect([part, answer.status, answer.headers.get('content-type')]).toEqual([part, 200, 'video/mp4']);
    }
    const download = await get(`${ticket.value.path}recordings.mp4?src=cam&${range}`, desktop);
    expect(download.status).toBe(200);
    expect(
      Buffer.from(await download.arrayBuffer())
        .subarray(4, 8)
        .toString(),
    ).toBe('ftyp');
    // Another stream, a guessed ticket, or a ticket for a stream that is not recorded: refused.
    expect((await get(`${ticket.value.path}recordings?src=safe`, desktop)).status).toBe(403);
    expect((await get(`/console/recordings/guessed/recordings?src=cam`, desktop)).status).toBe(404);
    expect(await running.engine.services.call('recordings', 'playbackTicket', { stream: 'nobody' })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
  });

  it('counts the bytes in the bucket per day for the storage chart', async () => {
    const day = Date.UTC(2026, 10, 27);
    const usage = await running.engine.services.call('recordings', 'usage', {
      stream: 'cam',
      dayStartsMs: [day - 86_400_000, day, day + 86_400_000],
    });
    const bytes = segments.reduce((sum, s) => sum + s.bytes.length, 0);
    expect(usage).toEqual({
      ok: true,
      value: {
        days: [
          { startMs: day - 86_400_000, bytes: 0, segments: 0 },
          { startMs: day, bytes, segments: 3 },
        ],
      },
    });
  });
});
