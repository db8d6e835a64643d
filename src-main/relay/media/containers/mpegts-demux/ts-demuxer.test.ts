import { describe, expect, it } from 'vitest';
import { parseH264Sps, spsFromFmtp } from '../../codecs/h264/sps';
import { fixture } from '@main/relay/test/media-fixtures';
import { demuxAll } from '../test-media';
import { DemuxError } from '../demuxer';
import { createTsDemuxer } from './ts-demuxer';

describe('MPEG-TS demuxer', () => {
  it('reads ffmpeg MPEG-TS as H.264 and AAC frames with their times, in any chunking', () => {
    const ts = fixture('h264-aac-320x240-2s.mpegts'); // 2 s of 320x240 25 fps x264 with 44.1 kHz AAC
    for (const chunk of [100, 188 * 20]) {
      const { tracks, frames } = demuxAll(createTsDemuxer, ts, chunk);
      expect(tracks.map((t) => [t.kind, t.codec.name, t.codec.clockRate])).toEqual([
        ['video', 'H264', 90000],
        ['audio', 'MPEG4-GENERIC', 44100],
      ]);
      expect(parseH264Sps(spsFromFmtp(tracks[0]!.codec.fmtp)!)).toMatchObject({ width: 320, height: 240 });
      const video = frames.filter((f) => f.track === 0).map((f) => f.frame);
      expect(video.length).toBe(50);
      expect(video.filter((f) => f.keyframe).length).toBe(2);
      const times = video.map((f) => f.timestamp).sort((a, b) => a - b);
      expect(times[10]! - times[9]!).toBe(3600);
      const audio = frames.filter((f) => f.track === 1).map((f) => f.frame);
      expect(audio.length).toBeGreaterThan(80);
      expect(audio[5]!.timestamp - audio[4]!.timestamp).toBe(1024);
    }
  });

  it('reads H.265', () => {
    const ts = fixture('h265-aac-320x240-1s.mpegts'); // 1 s of x265 with AAC
    const { tracks, frames } = demuxAll(createTsDemuxer, ts);
    expect(tracks[0]!.codec.name).toBe('H265');
    expect(tracks[0]!.codec.fmtp).toMatch(/sprop-vps=.+;sprop-sps=.+;sprop-pps=.+/);
    expect(frames.filter((f) => f.track === 0).length).toBe(25);
  });

  it('says what is wrong with bytes that are not MPEG-TS', () => {
    const noop = { tracks: () => undefined, frame: () => undefined };
    expect(() => createTsDemuxer(noop).push(Buffer.from('FLV\x01\x05'))).toThrow('lost sync at byte 0');
    const ts = fixture('h264-aac-320x240-2s.mpegts');
    const shifted = Buffer.concat([ts.subarray(0, 188 * 3), ts.subarray(188 * 3 + 5)]);
    expect(() => demuxAll(createTsDemuxer, shifted)).toThrow(`lost sync at byte ${188 * 3}`);
    const empty = createTsDemuxer(noop);
    expect(() => empty.end()).toThrow('the body is empty');
  });

  it('refuses an ADTS header with a sample rate AAC does not have as a demux error', () => {
    const ts = Buffer.from(fixture('h264-aac-320x240-2s.mpegts')); // a copy: the test changes it
    // Every ADTS header of the 44.1 kHz audio (sampling index 4) gets index 13, which is reserved.
    let changed = 0;
    for (let i = 0; i + 2 < ts.length; i++) {
      if (ts[i] === 0xff && (ts[i + 1]! & 0xf6) === 0xf0 && ((ts[i + 2]! >> 2) & 0x0f) === 4) {
        ts[i + 2] = (ts[i + 2]! & 0xc3) | (13 << 2);
        changed++;
      }
    }
    expect(changed).toBeGreaterThan(10);
    expect(() => demuxAll(createTsDemuxer, ts)).toThrow(DemuxError);
    expect(() => demuxAll(createTsDemuxer, ts)).toThrow('sampling frequency index 13');
  });
});
