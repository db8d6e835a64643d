import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probe, run, startRelay, waitFor, type RelayUnderTest } from '../../test/relay-test-kit';
import { ffmpegArgs, parseFfmpegSource } from './ffmpeg-args';

describe('ffmpeg source arguments', () => {
  const ctx = { localStream: (name: string) => (name === 'cam' ? 'rtsp://127.0.0.1:8554/cam' : undefined) };

  it('transcodes another stream of the relay', () => {
    const args = ffmpegArgs(parseFfmpegSource('ffmpeg:cam#video=h264#audio=opus'), ctx, 'rtsp://127.0.0.1:8554/out');
    expect(args.join(' ')).toContain('-rtsp_transport tcp -i rtsp://127.0.0.1:8554/cam?video&audio');
    expect(args.join(' ')).toContain('-c:v:0 libx264');
    expect(args.join(' ')).toContain('-c:a:0 libopus');
    expect(args.slice(-2)).toEqual(['tcp', 'rtsp://127.0.0.1:8554/out']);
  });

  it('copies by default, drops audio when only video is asked for, plays files in real time', () => {
    expect(ffmpegArgs(parseFfmpegSource('ffmpeg:rtsp://cam/1'), ctx, 'o').join(' ')).toContain('-c:v:0 copy -map 0:a:0? -c:a:0 copy');
    expect(ffmpegArgs(parseFfmpegSource('ffmpeg:/videos/a.mp4#video=h264'), ctx, 'o').join(' ')).toMatch(
      /-re -stream_loop -1 -i \/videos\/a\.mp4.*-an/,
    );
    expect(ffmpegArgs(parseFfmpegSource('ffmpeg:cam#video=h264#width=640#rotate=90'), ctx, 'o').join(' ')).toContain(
      '-filter:v:0 scale=640:-2,transpose=1',
    );
  });

  it('one output track per #video= and #audio=, each with its own codec options', () => {
    const args = ffmpegArgs(parseFfmpegSource('ffmpeg:cam#video=copy#video=h264#width=320#audio=copy#audio=opus'), ctx, 'o').join(' ');
    expect(args).toContain('-map 0:v:0? -c:v:0 copy -map 0:v:0? -c:v:1 libx264');
    // The size applies to the encoded copy; the original passes as it is.
    expect(args).toContain('-filter:v:1 scale=320:-2');
    expect(args).not.toContain('-filter:v:0');
    expect(args).toContain('-map 0:a:0? -c:a:0 copy -map 0:a:0? -c:a:1 libopus -application:a:1 lowdelay');
  });

  it('#query= goes on the relay stream URL, #raw= after the codecs, and every virtual input is paced', () => {
    expect(ffmpegArgs(parseFfmpegSource('ffmpeg:cam#audio=opus#query=log_level=debug'), ctx, 'o').join(' ')).toContain(
      '-i rtsp://127.0.0.1:8554/cam?audio&log_level=debug',
    );
    expect(() => parseFfmpegSource('ffmpeg:cam#query=a b')).toThrow(/not key=value pairs/);
    const raw = ffmpegArgs(parseFfmpegSource('ffmpeg:cam#video=h264#raw=-crf 30 -metadata title="front door"'), ctx, 'o');
    expect(raw.slice(-9)).toEqual(['-crf', '30', '-metadata', 'title=front door', '-f', 'rtsp', '-rtsp_transport', 'tcp', 'o']);
    const virtual = ffmpegArgs(parseFfmpegSource('ffmpeg:virtual?video=testsrc&size=320x240&audio#audio=pcma'), ctx, 'o');
    expect(virtual.filter((a) => a === '-re')).toHaveLength(2);
    expect(virtual.join(' ')).toContain('-re -f lavfi -i sine=');
    expect(virtual.join(' ')).toContain('-map 1:a:0 -c:a:0 pcm_alaw');
  });

  it('#hardware: the encoder and filters of the engine that works here, software otherwise', () => {
    const vaapi = ffmpegArgs(parseFfmpegSource('ffmpeg:cam#video=h264#width=640#hardware'), { ...ctx, hardware: 'vaapi' }, 'o').join(' ');
    expect(vaapi).toMatch(/^-hide_banner -loglevel error -hwaccel vaapi -hwaccel_output_format vaapi/);
    expect(vaapi).toContain('-c:v:0 h264_vaapi');
    expect(vaapi).toContain('-filter:v:0 format=vaapi|nv12,hwupload,scale_vaapi=640:-2');
    const software = ffmpegArgs(parseFfmpegSource('ffmpeg:cam#video=h264#hardware'), ctx, 'o').join(' ');
    expect(software).toContain('-c:v:0 libx264');
    expect(software).not.toContain('hwaccel');
    expect(() => parseFfmpegSource('ffmpeg:cam#video=h264#hardware=quantum')).toThrow(/hardware=quantum is not known/);
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
    await run('ffmpeg', [
      '-v',
      'error',
      '-f',
      'lavfi',
      '-i',
      'testsrc=size=352x288:rate=25',
      '-f',
      'lavfi',
      '-i',
      'sine',
      '-t',
      '3',
      '-c:v',
      'libx264',
      '-g',
      '25',
      '-pix_fmt',
      'yuv420p',
      '-c:a',
      'aac',
      file,
    ]);
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
