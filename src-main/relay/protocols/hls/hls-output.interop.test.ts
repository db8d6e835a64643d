import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishTestPattern, run, startRelay, waitFor, waitForMedia, type RelayUnderTest } from '../../test/relay-test-kit';

/** What ffmpeg and ffprobe read from an HLS URL (frames decoded in `seconds`, codecs, size). */
async function decodeFrames(url: string, seconds: number): Promise<{ frames: number; errors: string }> {
  const result = await run(
    'ffmpeg',
    ['-hide_banner', '-v', 'error', '-stats', '-i', url, '-t', String(seconds), '-map', '0:v', '-f', 'null', '-'],
    (seconds + 30) * 1000,
  );
  const frames = [...result.stderr.matchAll(/frame=\s*(\d+)/g)].map((m) => Number(m[1]));
  return {
    frames: frames.at(-1) ?? 0,
    errors: result.stderr
      .replace(/^frame=.*$/gm, '')
      .replace(/\r/g, '')
      .trim(),
  };
}

async function probeUrl(url: string) {
  const result = await run(
    'ffprobe',
    ['-v', 'error', '-show_entries', 'stream=codec_name,codec_type,width,height', '-of', 'json', url],
    30_000,
  );
  if (result.code !== 0) throw new Error(`ffprobe failed: ${result.stderr}`);
  return (JSON.parse(result.stdout) as { streams: Array<{ codec_name: string; codec_type: string; width?: number; height?: number }> })
    .streams;
}

/**
 * The media playlist's sequence numbers, durations, dates and target, checked for
 * well-formedness: no segment rounds above the target (RFC 8216 4.3.3.1), no part lasts longer
 * than PART-TARGET, numbers run on from EXT-X-MEDIA-SEQUENCE.
 */
function parseMediaPlaylist(text: string) {
  const lines = text.trim().split('\n');
  expect(lines[0]).toBe('#EXTM3U');
  const target = Number(/#EXT-X-TARGETDURATION:(\d+)/.exec(text)?.[1]);
  const mediaSequence = Number(/#EXT-X-MEDIA-SEQUENCE:(\d+)/.exec(text)?.[1]);
  const durations = [...text.matchAll(/#EXTINF:([\d.]+),/g)].map((m) => Number(m[1]));
  const dates = [...text.matchAll(/#EXT-X-PROGRAM-DATE-TIME:(\S+)/g)].map((m) => Date.parse(m[1]!));
  const uris = lines.filter((l) => l && !l.startsWith('#'));
  const numbers = uris.map((u) => Number(new URL(u, 'http://x/api/hls/').searchParams.get('n')));
  expect(target).toBeGreaterThanOrEqual(1);
  expect(durations.length).toBe(uris.length);
  for (const d of durations) expect(Math.round(d)).toBeLessThanOrEqual(target);
  const partTarget = Number(/#EXT-X-PART-INF:PART-TARGET=([\d.]+)/.exec(text)?.[1]);
  for (const [, d] of text.matchAll(/#EXT-X-PART:DURATION=([\d.]+)/g)) expect(Number(d)).toBeLessThanOrEqual(partTarget);
  expect(numbers[0]).toBe(mediaSequence);
  expect(numbers).toEqual(numbers.map((_, i) => mediaSequence + i));
  // Each segment's date is the one before it plus its duration.
  expect(dates).toHaveLength(uris.length);
  dates.slice(1).forEach((date, i) => expect(Math.abs(date - dates[i]! - durations[i]! * 1000)).toBeLessThanOrEqual(1));
  expect(text).not.toContain('#EXT-X-ENDLIST');
  return { target, mediaSequence, durations, uris, numbers, dates };
}

const hlsConsumers = async (relay: RelayUnderTest) =>
  (await (await fetch(`${relay.api}/api/stack`)).text()).split('\n').filter((l) => /^consumer .*: hls\//.test(l)).length;

/** A request as a player on another site's page sends it. */
const PLAYER_PAGE = { headers: { Origin: 'https://player.example' } };

describe('HLS output', () => {
  let relay: RelayUnderTest;
  let camera: ChildProcess;
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'hls-test-'));
    // Players on other sites' pages (a dashboard, a cast receiver) read HLS when api.origin lets them.
    relay = await startRelay('  cam:\n', '', 0, '', '  origin: "*"\n');
    camera = publishTestPattern(relay.rtspUrl('cam'), 120);
    await waitForMedia(relay, 'cam');
  }, 30_000);

  afterAll(async () => {
    camera?.kill('SIGKILL');
    await relay?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('answers a master playlist as go2rtc, then live MPEG-TS playlists with rising media sequence numbers', async () => {
    const master = await fetch(`${relay.api}/api/stream.m3u8?src=cam`, PLAYER_PAGE);
    expect(master.status).toBe(200);
    expect(master.headers.get('content-type')).toBe('application/vnd.apple.mpegurl');
    expect(master.headers.get('access-control-allow-origin')).toBe('*');
    const text = await master.text();
    // x264's ultrafast preset is Constrained Baseline (42 c0); AAC-LC is object type 2.
    expect(text).toMatch(
      /^#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-STREAM-INF:BANDWIDTH=1000000,CODECS="avc1\.42c0[0-9a-f]{2},mp4a\.40\.2",RESOLUTION=320x240\nhls\/playlist\.m3u8\?id=[\w-]+\n$/i,
    );
    const playlistUrl = new URL(text.trim().split('\n').pop()!, `${relay.api}/api/stream.m3u8`).href;
    expect(playlistUrl).toMatch(/\/api\/hls\/playlist\.m3u8\?id=/);

    const started = Date.now();
    const first = await fetch(playlistUrl, PLAYER_PAGE);
    expect(first.headers.get('access-control-allow-origin')).toBe('*');
    const one = parseMediaPlaylist(await first.text());
    // The first playlist is the session's first GOP (the cached one, then live frames up to the
    // next keyframe) as three segments: there within a GOP (1 s).
    expect(Date.now() - started).toBeLessThan(3000);
    expect(one.numbers).toEqual([0, 1, 2]);
    expect(one.durations.reduce((sum, d) => sum + d, 0)).toBeCloseTo(1, 1);
    for (const d of one.durations) expect(d).toBeGreaterThan(0);

    // Reloads: the same target, the same segments under the same numbers, then keyframe to keyframe.
    const reloads = [one];
    await waitFor(async () => {
      reloads.push(parseMediaPlaylist(await (await fetch(playlistUrl)).text()));
      return reloads.at(-1)!.numbers.at(-1)! >= 6 ? true : undefined;
    }, 15_000);
    expect(new Set(reloads.map((r) => r.target))).toEqual(new Set([one.target]));
    const two = reloads.at(-1)!;
    expect(two.mediaSequence).toBeGreaterThanOrEqual(one.mediaSequence);
    for (const reload of reloads) {
      reload.numbers.forEach((n, i) => {
        const before = reloads[0]!.numbers.indexOf(n);
        if (before >= 0) expect([reload.durations[i], reload.dates[i]]).toEqual([reloads[0]!.durations[before], reloads[0]!.dates[before]]);
      });
    }
    two.durations.forEach((d, i) => two.numbers[i]! > 2 && expect(d).toBeCloseTo(1, 1));

    const segment = await fetch(new URL(two.uris.at(-1)!, playlistUrl), PLAYER_PAGE);
    expect(segment.status).toBe(200);
    expect(segment.headers.get('content-type')).toBe('video/mp2t');
    expect(segment.headers.get('access-control-allow-origin')).toBe('*');
    const bytes = new Uint8Array(await segment.arrayBuffer());
    expect(bytes.length % 188).toBe(0);
    expect(bytes[0]).toBe(0x47);
    // Each segment plays on its own: PAT/PMT, then a keyframe with its parameter sets.
    const file = join(dir, 'segment.ts');
    await writeFile(file, bytes);
    const alone = await run('ffmpeg', ['-v', 'error', '-i', file, '-f', 'null', '-']);
    expect(alone.stderr).toBe('');
    expect(await probeUrl(file)).toEqual([
      expect.objectContaining({ codec_name: 'h264', width: 320, height: 240 }),
      expect.objectContaining({ codec_name: 'aac' }),
    ]);
  }, 60_000);

  it('serves fMP4 with filters: version 6 playlist with EXT-X-MAP, init.mp4 and segment.m4s', async () => {
    const master = await fetch(`${relay.api}/api/stream.m3u8?src=cam&mp4`);
    const text = await master.text();
    expect(text).toMatch(
      /#EXT-X-STREAM-INF:BANDWIDTH=1000000,CODECS="avc1\.42[cC]0[0-9a-fA-F]{2},mp4a\.40\.2",RESOLUTION=320x240\nhls\/playlist\.m3u8\?id=[\w-]+\n$/,
    );
    const playlistUrl = new URL(text.trim().split('\n').pop()!, `${relay.api}/api/`).href;
    const playlist = await (await fetch(playlistUrl)).text();
    expect(playlist).toMatch(/^#EXTM3U\n#EXT-X-VERSION:6\n/);
    const id = new URL(playlistUrl).searchParams.get('id');
    expect(playlist).toContain(`#EXT-X-MAP:URI="init.mp4?id=${id}"`);
    const { uris } = parseMediaPlaylist(playlist);
    expect(uris).toEqual([0, 1, 2].map((n) => `segment.m4s?id=${id}&n=${n}`));

    const init = await fetch(new URL(`init.mp4?id=${id}`, playlistUrl), PLAYER_PAGE);
    expect([init.status, init.headers.get('content-type'), init.headers.get('access-control-allow-origin')]).toEqual([
      200,
      'video/mp4',
      '*',
    ]);
    const segment = await fetch(new URL(uris[0]!, playlistUrl));
    expect([segment.status, segment.headers.get('content-type')]).toEqual([200, 'video/iso.segment']);
    // init + one segment is a playable fragmented MP4 that starts on a keyframe.
    const file = join(dir, 'segment.mp4');
    await writeFile(file, Buffer.concat([Buffer.from(await init.arrayBuffer()), Buffer.from(await segment.arrayBuffer())]));
    const alone = await run('ffmpeg', ['-v', 'error', '-i', file, '-f', 'null', '-']);
    expect(alone.stderr).toBe('');
    expect((await fetch(`${relay.api}/api/hls/segment.ts?id=${id}&n=0`)).status).toBe(404);
    // A filter the source cannot meet is a 400 that names both sides.
    const mismatch = await fetch(`${relay.api}/api/stream.m3u8?src=cam&video=h265`);
    expect(mismatch.status).toBe(400);
    expect(await mismatch.text()).toMatch(/codecs not matched: the source has video H264, audio MPEG4-GENERIC/);
  }, 60_000);

  it('plays through ffmpeg at the source rate, MPEG-TS and fMP4: about 100 frames in 4 s, codecs and size', async () => {
    const ts = `${relay.api}/api/stream.m3u8?src=cam`;
    const fmp4 = `${relay.api}/api/stream.m3u8?src=cam&mp4`;
    const [tsFrames, fmp4Frames, tsStreams, fmp4Streams] = await Promise.all([
      decodeFrames(ts, 4),
      decodeFrames(fmp4, 4),
      probeUrl(ts),
      probeUrl(fmp4),
    ]);
    for (const decoded of [tsFrames, fmp4Frames]) {
      expect(decoded.errors).toBe('');
      expect(decoded.frames).toBeGreaterThanOrEqual(85);
      expect(decoded.frames).toBeLessThanOrEqual(115);
    }
    for (const streams of [tsStreams, fmp4Streams]) {
      expect(streams).toEqual([
        expect.objectContaining({ codec_type: 'video', codec_name: 'h264', width: 320, height: 240 }),
        expect.objectContaining({ codec_type: 'audio', codec_name: 'aac' }),
      ]);
    }
  }, 60_000);

  it('answers bad and unknown requests with clear errors, CORS included', async () => {
    const unknown = await fetch(`${relay.api}/api/hls/playlist.m3u8?id=nope`, PLAYER_PAGE);
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('access-control-allow-origin')).toBe('*');
    expect(await unknown.text()).toBe('HLS session nope not found: it expired or never existed; open /api/stream.m3u8 again\n');
    expect((await fetch(`${relay.api}/api/hls/segment.ts?id=nope&n=1`)).status).toBe(404);
    expect((await fetch(`${relay.api}/api/hls/playlist.m3u8`)).status).toBe(400);
    const noStream = await fetch(`${relay.api}/api/stream.m3u8?src=nope`);
    expect([noStream.status, await noStream.text()]).toEqual([404, 'stream not found: nope\n']);
    expect((await fetch(`${relay.api}/api/stream.m3u8`)).status).toBe(400);

    const master = await (await fetch(`${relay.api}/api/stream.m3u8?src=cam`)).text();
    const id = /id=([\w-]+)/.exec(master)![1]!;
    const badN = await fetch(`${relay.api}/api/hls/segment.ts?id=${id}&n=abc`);
    expect([badN.status, await badN.text()]).toEqual([400, 'n must be a segment number from the playlist, not "abc"\n']);
    const future = await fetch(`${relay.api}/api/hls/segment.ts?id=${id}&n=99`);
    expect(future.status).toBe(404);
    expect(await future.text()).toMatch(/segment 99 .* does not exist yet/);
    const init = await fetch(`${relay.api}/api/hls/init.mp4?id=${id}`);
    expect(init.status).toBe(404);
    const preflight = await fetch(`${relay.api}/api/hls/playlist.m3u8?id=${id}`, {
      method: 'OPTIONS',
      headers: { ...PLAYER_PAGE.headers, 'Access-Control-Request-Method': 'GET' },
    });
    // For a session it does not know, without an Origin (a tool), no CORS header is sent at all.
    expect((await fetch(`${relay.api}/api/hls/playlist.m3u8?id=nope`)).headers.get('access-control-allow-origin')).toBeNull();
    expect([preflight.status, preflight.headers.get('access-control-allow-origin')]).toEqual([204, '*']);
  }, 30_000);

  it("a named stream's HLS is open to players on any page, as go2rtc's is; a source URL's temporary stream's never", async () => {
    // Asked as a tool asks (no Origin): what api.origin adds plays no part here.
    const named = await fetch(`${relay.api}/api/stream.m3u8?src=cam`);
    expect([named.status, named.headers.get('access-control-allow-origin')]).toEqual([200, '*']);
    const id = /id=([\w-]+)/.exec(await named.text())![1]!;
    expect((await fetch(`${relay.api}/api/hls/playlist.m3u8?id=${id}`)).headers.get('access-control-allow-origin')).toBe('*');

    const byUrl = await fetch(`${relay.api}/api/stream.m3u8?src=${encodeURIComponent(relay.rtspUrl('cam'))}`);
    expect([byUrl.status, byUrl.headers.get('access-control-allow-origin')]).toEqual([200, null]);
    const urlId = /id=([\w-]+)/.exec(await byUrl.text())![1]!;
    expect((await fetch(`${relay.api}/api/hls/playlist.m3u8?id=${urlId}`)).headers.get('access-control-allow-origin')).toBeNull();
  }, 30_000);

  it('Low-Latency HLS: parts in the playlist, blocking reloads that answer once the asked part is out, parts that decode', async () => {
    const master = await (await fetch(`${relay.api}/api/stream.m3u8?src=cam&mp4`)).text();
    const playlistUrl = new URL(master.trim().split('\n').pop()!, `${relay.api}/api/stream.m3u8`).href;
    const text = await (await fetch(playlistUrl)).text();
    expect(text).toContain('#EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,PART-HOLD-BACK=0.900\n#EXT-X-PART-INF:PART-TARGET=0.300\n');
    const parts = [...text.matchAll(/#EXT-X-PART:DURATION=([\d.]+),URI="([^"]+)"(,INDEPENDENT=YES)?/g)];
    expect(parts.length).toBeGreaterThan(0);
    for (const [, duration] of parts) expect(Number(duration)).toBeLessThanOrEqual(0.3);
    const hint = /#EXT-X-PRELOAD-HINT:TYPE=PART,URI="part\.m4s\?id=[\w-]+&n=(\d+)&p=(\d+)"/.exec(text);
    expect(hint).not.toBeNull();
    const [msn, part] = [Number(hint![1]), Number(hint![2])];

    // A blocking reload for the hinted part answers once it is out, and lists it.
    const blocked = await (await fetch(`${playlistUrl}&_HLS_msn=${msn}&_HLS_part=${part}`)).text();
    expect(blocked).toMatch(
      new RegExp(`#EXT-X-PART:DURATION=[\\d.]+,URI="part\\.m4s\\?id=[\\w-]+&n=${msn}&p=${part}"|segment\\.m4s\\?id=[\\w-]+&n=${msn}\n`),
    );
    // The hinted part itself (waited for if still being filled) after the init segment plays.
    const base = new URL(playlistUrl);
    const id = base.searchParams.get('id')!;
    const init = Buffer.from(await (await fetch(`${relay.api}/api/hls/init.mp4?id=${id}`)).arrayBuffer());
    const independent = /URI="(part\.m4s\?[^"]+)",INDEPENDENT=YES/.exec(blocked)![1]!;
    const partResponse = await fetch(new URL(independent, playlistUrl));
    expect(partResponse.status).toBe(200);
    expect(partResponse.headers.get('content-type')).toBe('video/iso.segment');
    const file = join(dir, 'part.mp4');
    await writeFile(file, Buffer.concat([init, Buffer.from(await partResponse.arrayBuffer())]));
    const streams = await probeUrl(file);
    expect(streams.find((s) => s.codec_type === 'video')).toMatchObject({ codec_name: 'h264', width: 320, height: 240 });

    // Bad reloads say what is wrong.
    const status = async (query: string) => {
      const response = await fetch(`${playlistUrl}${query}`);
      return `${response.status} ${(await response.text()).trim()}`;
    };
    expect(await status('&_HLS_part=1')).toMatch(/^400 _HLS_part needs _HLS_msn/);
    expect(await status(`&_HLS_msn=${msn + 50}`)).toMatch(/^400 _HLS_msn=\d+ is too far ahead/);
    expect(await status('&_HLS_msn=x')).toMatch(/^400 _HLS_msn must be a media sequence number/);
    const missing = await fetch(`${relay.api}/api/hls/part.m4s?id=${id}&n=${msn - 1}&p=999`);
    expect(`${missing.status} ${await missing.text()}`).toMatch(
      /^404 part 999 of segment \d+ .* does not exist: the segment ended with \d+ parts/,
    );
    expect((await fetch(`${relay.api}/api/hls/part.ts?id=${id}&n=${msn}&p=0`)).status).toBe(404);

    // MPEG-TS sessions have parts too; an independent one decodes alone (PAT and PMT lead it).
    const tsMaster = await (await fetch(`${relay.api}/api/stream.m3u8?src=cam`)).text();
    const tsPlaylistUrl = new URL(tsMaster.trim().split('\n').pop()!, `${relay.api}/api/stream.m3u8`).href;
    const tsText = await (await fetch(`${tsPlaylistUrl}&_HLS_msn=1&_HLS_part=0`)).text();
    const tsPart = /URI="(part\.ts\?[^"]+)",INDEPENDENT=YES/.exec(tsText)![1]!;
    const tsStreams = await probeUrl(new URL(tsPart, tsPlaylistUrl).href);
    expect(tsStreams.find((s) => s.codec_type === 'video')).toMatchObject({ codec_name: 'h264', width: 320, height: 240 });
  });

  it('ends a session some seconds after its last request: consumer released, then 404', async () => {
    const master = await (await fetch(`${relay.api}/api/stream.m3u8?src=cam`)).text();
    const playlistUrl = new URL(master.trim().split('\n').pop()!, `${relay.api}/api/`).href;
    expect((await fetch(playlistUrl)).status).toBe(200);
    expect(await hlsConsumers(relay)).toBeGreaterThanOrEqual(1);
    const stoppedAt = Date.now();
    // Every session of this file (ffmpeg's too) expires once nobody fetches: none is left.
    await waitFor(async () => ((await hlsConsumers(relay)) === 0 ? true : undefined), 20_000);
    expect(Date.now() - stoppedAt).toBeGreaterThan(3000);
    const gone = await fetch(playlistUrl);
    expect(gone.status).toBe(404);
    const cam = (await (await fetch(`${relay.api}/api/streams?src=cam`)).json()) as { consumers: unknown[] };
    expect(cam.consumers).toEqual([]);
  }, 40_000);
});
