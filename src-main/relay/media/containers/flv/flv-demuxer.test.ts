import { describe, expect, it } from 'vitest';
import { parseH264Sps, spsFromFmtp } from '../../codecs/h264/sps';
import { fromAvcc } from '../../codecs/h264/nal';
import { fixture } from '@main/relay/test/media-fixtures';
import { demuxAll } from '../test-media';
import { createFlvDemuxer } from './flv-demuxer';

describe('FLV demuxer', () => {
  it('reads ffmpeg FLV as H.264 and AAC frames with their times, in any chunking', () => {
    const flv = fixture('h264-aac-320x240-2s.flv'); // 2 s of 320x240 25 fps x264 with 44.1 kHz AAC
    for (const chunk of [7, 4096]) {
      const { tracks, frames } = demuxAll(createFlvDemuxer, flv, chunk);
      expect(tracks.map((t) => [t.kind, t.codec.name, t.codec.clockRate])).toEqual([
        ['video', 'H264', 90000],
        ['audio', 'MPEG4-GENERIC', 44100],
      ]);
      expect(parseH264Sps(spsFromFmtp(tracks[0]!.codec.fmtp)!)).toMatchObject({ width: 320, height: 240 });
      const video = frames.filter((f) => f.track === 0).map((f) => f.frame);
      const audio = frames.filter((f) => f.track === 1).map((f) => f.frame);
      expect(video.length).toBe(50);
      expect(video.filter((f) => f.keyframe).length).toBe(2);
      expect(video[0]!.keyframe).toBe(true);
      // The keyframe carries its parameter sets, so a viewer can start there.
      expect(
        fromAvcc(video[0]!.data)
          .map((u) => u[0]! & 0x1f)
          .slice(0, 2),
      ).toEqual([7, 8]);
      // 25 fps → 3600 ticks apart in presentation order.
      const times = video.map((f) => f.timestamp).sort((a, b) => a - b);
      expect(times[10]! - times[9]!).toBe(3600);
      // 2 s of 44.1 kHz AAC is about 86 frames of 1024 samples, 1024 apart.
      expect(audio.length).toBeGreaterThan(80);
      expect(audio[5]!.timestamp - audio[4]!.timestamp).toBe(1024);
    }
  });

  it('says what is wrong with bytes that are not FLV, or stop inside the header', () => {
    const noop = { tracks: () => undefined, frame: () => undefined };
    expect(() => createFlvDemuxer(noop).push(Buffer.from('GET / HTTP/1.1\r\n'))).toThrow('not FLV');
    const flv = fixture('h264-aac-320x240-2s.flv');
    const cut = createFlvDemuxer(noop);
    cut.push(flv.subarray(0, 5));
    expect(() => cut.end()).toThrow('ended before the FLV header');
    const corrupt = Buffer.from(flv);
    corrupt[13] = 0x55; // first tag's type
    expect(() => demuxAll(createFlvDemuxer, corrupt)).toThrow(/unknown tag type 85/);
  });
});
