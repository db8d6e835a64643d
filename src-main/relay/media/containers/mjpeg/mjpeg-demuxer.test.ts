import { describe, expect, it } from 'vitest';
import { parseJpeg } from '../../codecs/jpeg/jpeg-parse';
import { fixture } from '@main/relay/test/media-fixtures';
import { demuxAll } from '../test-media';
import { findJpegEnd } from './jpeg-boundaries';
import { createMjpegDemuxer } from './mjpeg-demuxer';

// ffprobe reading the pictures it splits out is in mjpeg-demuxer.interop.test.ts.
describe('MJPEG demuxer', () => {
  it('splits ffmpeg multipart MJPEG (with Content-Length) and plain JPEG runs into whole pictures', () => {
    for (const format of ['mpjpeg', 'mjpeg'] as const) {
      // 10 pictures of a 320x240 test pattern: multipart (mpjpeg) or one JPEG after the other (mjpeg).
      const body = fixture(`jpeg-320x240-10f.${format}`);
      for (const chunk of [13, 65536]) {
        const { tracks, frames } = demuxAll((sink) => createMjpegDemuxer(sink), body, chunk);
        expect(tracks.map((t) => t.codec.name)).toEqual(['JPEG']);
        expect(frames.length).toBe(10);
        for (const { frame } of frames) expect(findJpegEnd(frame.data)).toBe(frame.data.length);
      }
      const { frames } = demuxAll((sink) => createMjpegDemuxer(sink), body);
      const { width, height } = parseJpeg(frames[3]!.frame.data);
      expect([width, height]).toEqual([320, 240]);
    }
  });

  it('reads parts without Content-Length and a boundary given without dashes, as cameras send them', () => {
    const { frames: all } = demuxAll((sink) => createMjpegDemuxer(sink), fixture('jpeg-320x240-10f.mjpeg'));
    const pictures = all.slice(0, 3);
    const body = Buffer.concat(
      pictures.flatMap(({ frame }) => [Buffer.from('\r\n--myboundary\r\nContent-Type: image/jpeg\r\n\r\n'), Buffer.from(frame.data)]),
    );
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
