import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import type { MediaFrame } from '../../core/media';
import type { DemuxedTrack, Demuxer, DemuxSink } from '../demuxer';
import { createAdtsDemuxer } from './adts-demuxer';
import { createAnnexBDemuxer } from './annexb-demuxer';
import { createWavDemuxer } from './wav-demuxer';

// Elementary streams made by ffmpeg, fed in uneven chunks as a socket would deliver them.
const ffmpeg = (args: string[]) => execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', ...args, '-'], { maxBuffer: 64 * 1024 * 1024 });

function run(make: (sink: DemuxSink) => Demuxer, bytes: Buffer): { tracks: DemuxedTrack[]; frames: MediaFrame[] } {
  const out = { tracks: [] as DemuxedTrack[], frames: [] as MediaFrame[] };
  const demuxer = make({ tracks: (t) => (out.tracks = t), frame: (_i, f) => out.frames.push(f) });
  for (let at = 0, step = 1; at < bytes.length; at += step, step = (step * 7 + 13) % 4093 + 1) demuxer.push(bytes.subarray(at, at + step));
  demuxer.end();
  return out;
}

describe('elementary stream demuxers', () => {
  it('ADTS: raw AAC frames, the config from the header, 1024 samples apart', () => {
    const adts = ffmpeg(['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000:duration=1', '-ac', '2', '-c:a', 'aac', '-f', 'adts']);
    const { tracks, frames } = run(createAdtsDemuxer, adts);
    expect(tracks[0]!.codec).toMatchObject({ name: 'MPEG4-GENERIC', clockRate: 48000, channels: 2 });
    expect(tracks[0]!.codec.fmtp).toContain('config=1190');
    expect(frames.length).toBeGreaterThanOrEqual(46);
    expect(frames[1]!.timestamp - frames[0]!.timestamp).toBe(1024);
    expect(frames.every((f) => f.data[0] !== 0xff || (f.data[1]! & 0xf0) !== 0xf0)).toBe(true); // headers removed
  });

  it('WAV: 16-bit PCM as big-endian L16 in packet-sized frames; A-law as PCMA', () => {
    const wav = ffmpeg(['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=16000:duration=1', '-c:a', 'pcm_s16le', '-f', 'wav']);
    const pcm = ffmpeg(['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=16000:duration=1', '-c:a', 'pcm_s16be', '-f', 's16be']);
    const { tracks, frames } = run(createWavDemuxer, wav);
    expect(tracks[0]!.codec).toMatchObject({ name: 'L16', clockRate: 16000, channels: 1 });
    expect(Buffer.concat(frames.map((f) => f.data))).toEqual(pcm);
    expect(Math.max(...frames.map((f) => f.data.length))).toBeLessThanOrEqual(1152);
    expect(frames[1]!.timestamp - frames[0]!.timestamp).toBe(frames[0]!.data.length / 2);
    const alaw = run(createWavDemuxer, ffmpeg(['-f', 'lavfi', '-i', 'sine=sample_rate=8000:duration=0.5', '-c:a', 'pcm_alaw', '-f', 'wav']));
    expect(alaw.tracks[0]!.codec).toMatchObject({ name: 'PCMA', clockRate: 8000, payloadType: 8 });
    expect(() => run(createWavDemuxer, ffmpeg(['-f', 'lavfi', '-i', 'sine=duration=0.1', '-c:a', 'pcm_f32le', '-f', 'wav']))).toThrow(/format 3 with 32-bit samples is not supported/);
  });

  it('Annex B H.264: access units from start codes, announced with their parameter sets, stamped as they arrive', () => {
    const h264 = ffmpeg(['-f', 'lavfi', '-i', 'testsrc=size=160x120:rate=25:duration=2', '-c:v', 'libx264', '-g', '25', '-bf', '0', '-pix_fmt', 'yuv420p', '-f', 'h264']);
    let clock = 1000;
    const out = { tracks: [] as DemuxedTrack[], frames: [] as MediaFrame[] };
    const demuxer = createAnnexBDemuxer({ tracks: (t) => (out.tracks = t), frame: (_i, f) => out.frames.push(f) }, { now: () => (clock += 40) });
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
    const hevc = ffmpeg(['-f', 'lavfi', '-i', 'testsrc=size=160x120:rate=25:duration=1', '-c:v', 'libx265', '-x265-params', 'log-level=error:keyint=25:bframes=0', '-f', 'hevc']);
    const { tracks, frames } = run((sink) => createAnnexBDemuxer(sink), hevc);
    expect(tracks[0]!.codec.name).toBe('H265');
    expect(tracks[0]!.codec.fmtp).toMatch(/sprop-vps=.+;sprop-sps=.+;sprop-pps=/);
    expect(frames).toHaveLength(25);
  });
});
