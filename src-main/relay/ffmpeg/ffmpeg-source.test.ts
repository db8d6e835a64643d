import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probe, run, startRelay, waitFor, type RelayUnderTest } from '../test/relay-test-kit';
import { ffmpegArgs, parseFfmpegSource } from './ffmpeg-args';

describe('ffmpeg source arguments', () => {
  const ctx = { localStream: (name: string) => (name === 'cam' ? 'rtsp://127.0.0.1:8554/cam' : undefined) };

  it('transcodes another stream of the relay', () => {
    const args = ffmpegArgs(parseFfmpegSource('ffmpeg:cam#video=h264#audio=opus'), ctx, 'rtsp://127.0.0.1:8554/out');
    expect(args.join(' ')).toContain('-rtsp_transport tcp -i rtsp://127.0.0.1:8554/cam');
    expect(args.join(' ')).toContain('-c:v libx264');
    expect(args.join(' ')).toContain('-c:a libopus');
    expect(args.slice(-2)).toEqual(['tcp', 'rtsp://127.0.0.1:8554/out']);
  });

  it('copies by default, drops audio when only video is asked for, plays files in real time', () => {
    expect(ffmpegArgs(parseFfmpegSource('ffmpeg:rtsp://cam/1'), ctx, 'o').join(' ')).toContain('-c:v copy -map 0:a:0? -c:a copy');
    expect(ffmpegArgs(parseFfmpegSource('ffmpeg:/videos/a.mp4#video=h264'), ctx, 'o').join(' ')).toMatch(/-re -stream_loop -1 -i \/videos\/a\.mp4.*-an/);
    expect(ffmpegArgs(parseFfmpegSource('ffmpeg:cam#video=h264#width=640#rotate=90'), ctx, 'o').join(' ')).toContain('-vf scale=640:-2,transpose=1');
  });

  it('refuses what it cannot do, saying why', () => {
    expect(() => parseFfmpegSource('ffmpeg:')).toThrow(/needs an input/);
    expect(() => parseFfmpegSource('ffmpeg:cam#video=vp9')).toThrow(/video=vp9 is not supported/);
    expect(() => parseFfmpegSource('ffmpeg:cam#nope=1')).toThrow(/unknown parameter #nope/);
    expect(() => ffmpegArgs(parseFfmpegSource('ffmpeg:cam#width=640'), ctx, 'o')).toThrow(/need a video codec/);
    expect(() => ffmpegArgs(parseFfmpegSource('ffmpeg:virtual?video=rm -rf'), ctx, 'o')).toThrow(/not a test pattern/);
  });
});

describe('ffmpeg and exec sources in a running relay', () => {
  let relay: RelayUnderTest;
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'rc-ffmpeg-'));
    const file = join(dir, 'clip.mp4');
    await run('ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', 'testsrc=size=352x288:rate=25', '-f', 'lavfi', '-i', 'sine', '-t', '3', '-c:v', 'libx264', '-g', '25', '-pix_fmt', 'yuv420p', '-c:a', 'aac', file]);
    relay = await startRelay(
      [
        '  demo: ffmpeg:virtual?video=testsrc&size=320x240#video=h264',
        '  transcoded: ffmpeg:demo#video=h264#width=160',
        `  clip: ffmpeg:${file}`,
        `  scripted: exec:ffmpeg -hide_banner -loglevel error -re -stream_loop -1 -i ${file} -c copy -f rtsp -rtsp_transport tcp {output}`,
        '  broken: exec:ffmpeg -i /nonexistent/file.mp4 -f rtsp {output}',
        '',
      ].join('\n'),
    );
  }, 30_000);
  afterAll(async () => {
    await relay?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  const children = async () => (await (await fetch(`${relay.api}/api/stack`)).text()).split('\n').filter((l) => l.startsWith('child'));

  it('serves the virtual test pattern, and stops its ffmpeg when the viewer leaves', async () => {
    const streams = await probe(relay.rtspUrl('demo'));
    expect(streams).toEqual([expect.objectContaining({ codec_name: 'h264', width: 320, height: 240 })]);
    await waitFor(async () => ((await children()).length === 0 ? true : undefined), 10_000);
  }, 30_000);

  it('transcodes another stream and scales it', async () => {
    const streams = await probe(relay.rtspUrl('transcoded'));
    expect(streams).toEqual([expect.objectContaining({ codec_name: 'h264', width: 160, height: 120 })]);
  }, 30_000);

  it('plays a file and an exec: command from the config', async () => {
    for (const name of ['clip', 'scripted']) {
      const streams = await probe(relay.rtspUrl(name));
      expect(streams.map((s) => `${s.codec_type}:${s.codec_name}`)).toEqual(['video:h264', 'audio:aac']);
      expect(streams[0]).toMatchObject({ width: 352, height: 288 });
    }
  }, 40_000);

  it('reports a command that fails with what it said', async () => {
    const result = await run('ffprobe', ['-v', 'error', '-rtsp_transport', 'tcp', relay.rtspUrl('broken')], 30_000);
    expect(result.stderr).toMatch(/503|Service Unavailable/);
    const info = (await (await fetch(`${relay.api}/api/streams?src=broken`)).json()) as { producers: Array<{ error?: string }> };
    expect(info.producers[0]!.error).toMatch(/exec exited with 1|No such file/);
    expect(await children()).toEqual([]);
  }, 40_000);
});
