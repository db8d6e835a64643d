import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { demuxAll } from '../test-media';
import { findJpegEnd } from './jpeg-boundaries';
import { createMjpegDemuxer } from './mjpeg-demuxer';

const exec = promisify(execFile);

async function encode(format: 'mjpeg' | 'mpjpeg', frames: number): Promise<Buffer> {
  const { stdout } = await exec('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', `testsrc=size=320x240:rate=25`, '-frames:v', String(frames), '-q:v', '5', '-f', format, 'pipe:1'], { encoding: 'buffer', maxBuffer: 32 * 1024 * 1024 });
  return stdout;
}

async function jpegSize(picture: Uint8Array): Promise<string> {
  const child = execFile('ffprobe', ['-v', 'error', '-show_entries', 'stream=width,height', '-of', 'csv=p=0', '-i', 'pipe:0']);
  child.stdin!.end(picture);
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  await new Promise((resolve) => child.on('close', resolve));
  return out.trim();
}

describe('MJPEG demuxer', () => {
  it('splits ffmpeg multipart MJPEG (with Content-Length) and plain JPEG runs into whole pictures', async () => {
    for (const format of ['mpjpeg', 'mjpeg'] as const) {
      const body = await encode(format, 10);
      for (const chunk of [13, 65536]) {
        const { tracks, frames } = demuxAll((sink) => createMjpegDemuxer(sink), body, chunk);
        expect(tracks.map((t) => t.codec.name)).toEqual(['JPEG']);
        expect(frames.length).toBe(10);
        for (const { frame } of frames) expect(findJpegEnd(frame.data)).toBe(frame.data.length);
      }
      const { frames } = demuxAll((sink) => createMjpegDemuxer(sink), body);
      expect(await jpegSize(frames[3]!.frame.data)).toBe('320,240');
    }
  });

  it('reads parts without Content-Length and a boundary given without dashes, as cameras send them', async () => {
    const raw = await encode('mjpeg', 3);
    const { frames: pictures } = demuxAll((sink) => createMjpegDemuxer(sink), raw);
    const body = Buffer.concat(pictures.flatMap(({ frame }) => [Buffer.from('\r\n--myboundary\r\nContent-Type: image/jpeg\r\n\r\n'), Buffer.from(frame.data)]));
    const { frames } = demuxAll((sink) => createMjpegDemuxer(sink, { boundary: 'myboundary' }), body, 100);
    expect(frames.map((f) => f.frame.data.length)).toEqual(pictures.map((p) => p.frame.data.length));
  });

  it('says what is wrong with a body that is not MJPEG', () => {
    const noop = { tracks: () => undefined, frame: () => undefined };
    expect(() => createMjpegDemuxer(noop).push(Buffer.from('FLV\x01'))).toThrow('neither multipart MJPEG nor JPEG');
    expect(() => createMjpegDemuxer(noop).push(Buffer.from('--b\r\nContent-Length: 3\r\n\r\nabc\r\n'))).toThrow('part 1 is not a JPEG');
    const empty = createMjpegDemuxer(noop);
    expect(() => empty.end()).toThrow('the body is empty');
  });
});
