import { describe, expect, it } from 'vitest';
import type { MediaFrame } from '@main/relay/core/media';
import { fixture } from '@main/relay/test/media-fixtures';
import type { DemuxedTrack, Demuxer, DemuxSink } from '../demuxer';
import { createAdtsDemuxer } from './adts-demuxer';
import { createAnnexBDemuxer } from './annexb-demuxer';
import { createWavDemuxer } from './wav-demuxer';

// Elementary streams made by ffmpeg (recorded), fed in uneven chunks as a socket would deliver them.

function run(make: (sink: DemuxSink) => Demuxer, bytes: Buffer): { tracks: DemuxedTrack[]; frames: MediaFrame[] } {
  const out = { tracks: [] as DemuxedTrack[], frames: [] as MediaFrame[] };
  const demuxer = make({ tracks: (t) => (out.tracks = t), frame: (_i, f) => out.frames.push(f) });
  for (let at = 0, step = 1; at < bytes.length; at += step, step = ((step * 7 + 13) % 4093) + 1)
    demuxer.push(bytes.subarray(at, at + step));
  demuxer.end();
  return out;
}

describe('elementary stream demuxers', () => {
  it('ADTS: raw AAC frames, the config from the header, 1024 samples apart', () => {
    const adts = fixture('aac-48000-stereo-1s.aac');
    const { tracks, frames } = run(createAdtsDemuxer, adts);
    expect(tracks[0]!.codec).toMatchObject({ name: 'MPEG4-GENERIC', clockRate: 48000, channels: 2 });
    expect(tracks[0]!.codec.fmtp).toContain('config=1190');
    expect(frames.length).toBeGreaterThanOrEqual(46);
    expect(frames[1]!.timestamp - frames[0]!.timestamp).toBe(1024);
    expect(frames.every((f) => f.data[0] !== 0xff || (f.data[1]! & 0xf0) !== 0xf0)).toBe(true); // headers removed
  });

  it('WAV: 16-bit PCM as big-endian L16 in packet-sized frames; A-law as PCMA', () => {
    const wav = fixture('s16le-16000-1s.wav');
    const pcm = fixture('s16be-16000-1s.pcm'); // the same sound as ffmpeg writes it big-endian;
    const { tracks, frames } = run(createWavDemuxer, wav);
    expect(tracks[0]!.codec).toMatchObject({ name: 'L16', clockRate: 16000, channels: 1 });
    expect(Buffer.concat(frames.map((f) => f.data))).toEqual(pcm);
    expect(Math.max(...frames.map((f) => f.data.length))).toBeLessThanOrEqual(1152);
    expect(frames[1]!.timestamp - frames[0]!.timestamp).toBe(frames[0]!.data.length / 2);
    const alaw = run(createWavDemuxer, fixture('alaw-8000-0.5s.wav'));
    expect(alaw.tracks[0]!.codec).toMatchObject({ name: 'PCMA', clockRate: 8000, payloadType: 8 });
    expect(() => run(createWavDemuxer, fixture('f32le-8000-0.1s.wav'))).toThrow(/format 3 with 32-bit samples is not supported/);
  });

  it('Annex B H.264: access units from start codes, announced with their parameter sets, stamped as they arrive', () => {
    const h264 = fixture('h264-320x240-2s.h264'); // 2 s of x264, a keyframe a second;
    let clock = 1000;
    const out = { tracks: [] as DemuxedTrack[], frames: [] as MediaFrame[] };
    const demuxer = createAnnexBDemuxer(
      { tracks: (t) => (out.tracks = t), frame: (_i, f) => out.frames.push(f) },
      { now: () => (clock += 40) },
    );
    demuxer.push(h264);
    demuxer.end();
    expect(out.tracks[0]!.codec.name).toBe('H264');
    expect(out.tracks[0]!.codec.fmtp).toMatch(/sprop-parameter-sets=Z[^,]+,aO/);
    expect(out.frames).toHaveLength(50);
    expect(out.frames.filter((f) => f.keyframe)).toHaveLength(2);
    expect(out.frames[0]!.keyframe).toBe(true);
    expect(out.frames[1]!.timestamp - out.frames[0]!.timestamp).toBe(40 * 90);
  });

  it('Annex B H.265 is told from H.264 by its NAL headers', () => {
    const hevc = fixture('h265-320x240-1s.hevc'); // 1 s of x265;
    const { tracks, frames } = run((sink) => createAnnexBDemuxer(sink), hevc);
    expect(tracks[0]!.codec.name).toBe('H265');
    expect(tracks[0]!.codec.fmtp).toMatch(/sprop-vps=.+;sprop-sps=.+;sprop-pps=/);
    expect(frames).toHaveLength(25);
  });
});
