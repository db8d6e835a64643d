import { describe, expect, it } from 'vitest';
import type { MediaFrame } from '@main/relay/core/media';
import { toAvcc } from '../../codecs/h264/nal';
import { aacCodec } from '../../frames/codec-description';
import { isKeyframe, timed, videoAccessUnits } from '@main/relay/test/media-fixtures';
import { createFmp4Muxer } from './muxer';
import { createFmp4LiveWriter } from './live-writer';
import { findBoxes, readFragments } from './box-reader';
import { SYNC_SAMPLE } from './fragment';
import {
  aac,
  alawFiles,
  bFramesGops,
  bFramesLearned,
  bFramesLive,
  h264,
  h264AacLive,
  h264Gops,
  h265File,
  opusFile,
  sampleTimes,
} from './test-files';

// The files are made of recorded media (test-files.ts); fmp4.interop.test.ts has ffprobe and
// ffmpeg read the same files.
describe('fragmented MP4 muxer', () => {
  it('H.264 (parameter sets from the first keyframe) with AAC: a fragment per video frame, the first a sync sample', () => {
    const fragments = readFragments(h264AacLive());
    expect(fragments.filter((f) => f.tracks.some((t) => t.trackId === 1))).toHaveLength(50);
    expect(fragments[0]!.tracks[0]).toMatchObject({ trackId: 1, baseTime: 0, samples: [{ flags: SYNC_SAMPLE, duration: 3600 }] });
    expect(fragments.map((f) => f.sequence)).toEqual(fragments.map((_, i) => i + 1));
  });

  it('names the codecs as RFC 6381 does, and answers init only once the parameter sets are known', () => {
    const muxer = createFmp4Muxer([
      { kind: 'video', codec: { name: 'H264', clockRate: 90000, payloadType: 96 } },
      { kind: 'audio', codec: aacCodec(aac().asc) },
    ]);
    expect(muxer.init()).toBeUndefined();
    expect(muxer.codecs()).toBe('avc1,mp4a.40.2');
    muxer.learn(0, h264()[0]!);
    expect(muxer.init()).toBeInstanceOf(Uint8Array);
    expect(muxer.contentType()).toMatch(/^video\/mp4; codecs="avc1\.42C0[0-9A-F]{2},mp4a\.40\.2"$/);
  });

  it('takes H.264 parameter sets from the SDP, and batches a GOP into one fragment with exact durations', () => {
    const { init, file } = h264Gops();
    expect(findBoxes(init, ['moov', 'trak', 'mdia', 'minf', 'stbl', 'stsd'])).toHaveLength(1);
    const fragments = readFragments(file);
    expect(fragments.map((f) => [f.tracks[0]!.baseTime, f.tracks[0]!.samples.length])).toEqual([
      [0, 25],
      [90000, 25],
    ]);
    expect(fragments.flatMap((f) => f.tracks[0]!.samples.map((s) => s.duration))).toEqual(new Array(50).fill(3600));
  });

  it('gives a fragment as pieces (its boxes, then the samples as they are) that make the same bytes', () => {
    const video = { kind: 'video' as const, codec: { name: 'H264', clockRate: 90000, payloadType: 96 } };
    const [keyframe] = h264();
    // Pictures of 3 KB: the first three one after another in one buffer (as a depacketizer
    // writes them), the last two each in a buffer of its own.
    const slab = new Uint8Array(5 * 3000);
    const picture = (i: number, data: Uint8Array): MediaFrame => ({ ...keyframe!, keyframe: i === 0, timestamp: i * 3600, data });
    const pictureBytes = (i: number) => {
      const unit = new Uint8Array(3000).fill(i + 1);
      unit.set([0, 0, 0x0b, 0xb4, i === 0 ? 0x65 : 0x41]);
      return unit;
    };
    const frames = [0, 1, 2, 3, 4].map((i) => {
      const own = pictureBytes(i);
      if (i >= 3) return picture(i, own);
      slab.set(own, i * 3000);
      return picture(i, slab.subarray(i * 3000, (i + 1) * 3000));
    });
    const whole = createFmp4Muxer([video]);
    const pieces = createFmp4Muxer([video]);
    for (const muxer of [whole, pieces]) muxer.learn(0, h264()[0]!);
    const samples = frames.map((frame) => ({ track: 0, frame }));
    const parts = pieces.fragmentParts(samples);
    // Not copied: the three that follow one another are one view of their buffer, the others are theirs.
    expect(parts.slice(1).map((p) => [p.buffer, p.byteOffset, p.length])).toEqual([
      [slab.buffer, 0, 9000],
      [frames[3]!.data.buffer, 0, 3000],
      [frames[4]!.data.buffer, 0, 3000],
    ]);
    expect(Buffer.concat(parts).equals(Buffer.from(whole.fragment(samples)))).toBe(true);
  });

  it('copies a run of small samples (audio) into one piece', () => {
    const audio = { kind: 'audio' as const, codec: { name: 'PCMA', clockRate: 8000, payloadType: 8 } };
    const whole = createFmp4Muxer([audio]);
    const pieces = createFmp4Muxer([audio]);
    const samples = Array.from({ length: 10 }, (_, i) => ({
      track: 0,
      frame: { codec: 'PCMA', timestamp: i * 160, keyframe: true, data: new Uint8Array(160).fill(i) },
    }));
    const parts = pieces.fragmentParts(samples);
    expect(parts).toHaveLength(2);
    expect(Buffer.concat(parts).equals(Buffer.from(whole.fragment(samples)))).toBe(true);
  });

  it('H.265 as hvc1 with VPS, SPS and PPS', () => {
    expect(h265File().codecs).toMatch(/^hvc1\.1\.6\.L\d+(\.[0-9A-F]+)*$/);
  });

  it('G.711 as alaw: audio alone is gathered into fragments of about 0.1 s', () => {
    const { packets, asAlaw } = alawFiles();
    // Not one per 20 ms packet.
    expect(readFragments(asAlaw).length).toBeLessThan(packets.length / 3);
  });

  it('Opus with dOps, timed by the TOC of each packet', () => {
    const { codecs, file } = opusFile();
    expect(codecs).toBe('opus');
    expect(readFragments(file)[0]!.tracks[0]!.samples.at(-1)!.duration).toBe(960);
  });

  it('refuses a codec MP4 does not carry, naming it and what it takes', () => {
    expect(() => createFmp4Muxer([{ kind: 'video', codec: { name: 'JPEG', clockRate: 90000, payloadType: 26 } }])).toThrow(
      /MP4 cannot carry video JPEG: it takes H264, H265/,
    );
    expect(() => createFmp4Muxer([{ kind: 'audio', codec: { name: 'MPEG4-GENERIC', clockRate: 44100, payloadType: 97 } }])).toThrow(
      /config=/,
    );
  });
});

describe('live writer', () => {
  // x264 zerolatency's SPS (High, 320x240): it declares no reordering, as these frames have none.
  const video = {
    kind: 'video' as const,
    codec: { name: 'H264', clockRate: 90000, payloadType: 96, fmtp: 'sprop-parameter-sets=Z2QADay0Cg/YCIAAAAMAgAAAGUeKFVA=,aO8Pyw==' },
  };
  const audio = { kind: 'audio' as const, codec: aacCodec(Uint8Array.of(0x12, 0x10)) };
  const frame = (timestamp: number, keyframe = false): MediaFrame => ({
    codec: 'H264',
    timestamp,
    keyframe,
    data: toAvcc([Uint8Array.of(keyframe ? 0x65 : 0x41, 1, 2, 3)]),
  });
  const sound = (timestamp: number): MediaFrame => ({ codec: 'MPEG4-GENERIC', timestamp, keyframe: true, data: Uint8Array.of(1, 2, 3) });

  it('starts at a keyframe, and places audio against the cached GOP by arrival time', () => {
    const writer = createFmp4LiveWriter({ tracks: [video, audio], now: () => 0 });
    expect(writer.push(0, frame(1000), 0)).toEqual([]); // not a keyframe: dropped
    expect(writer.push(1, sound(777), 0)).toEqual([]); // audio waits for video
    // The cached GOP arrives at once (at 1000 ms): 25 frames spanning 0.96 s.
    const gop = Array.from({ length: 25 }, (_, i) => writer.push(0, frame(90000 + i * 3600, i === 0), 1000));
    expect(gop[0]!).toHaveLength(2); // init + the keyframe's fragment
    // Live audio 10 ms later sits just after the newest cached frame: 0.97 s into the file.
    const [withAudio] = [writer.push(1, sound(123456), 1010), writer.push(0, frame(90000 + 25 * 3600), 1030)][1]!;
    const tracks = readFragments(withAudio!)[0]!.tracks;
    expect(tracks.map((t) => t.trackId)).toEqual([1, 2]);
    expect(tracks[0]!.baseTime).toBe(90000);
    expect(tracks[1]!.baseTime).toBe(Math.round(0.97 * 44100));
  });

  it('ends after `duration` seconds of media, and resyncs at the next keyframe', () => {
    const writer = createFmp4LiveWriter({ tracks: [video], duration: 2 });
    const out = Array.from({ length: 100 }, (_, i) => writer.push(0, frame(i * 3600, i % 25 === 0))).flat();
    expect(writer.done).toBe(true);
    expect(readFragments(Buffer.concat(out)).length).toBe(50);

    const live = createFmp4LiveWriter({ tracks: [video] });
    live.push(0, frame(0, true));
    live.resync();
    expect(live.push(0, frame(3600))).toEqual([]);
    expect(readFragments(live.push(0, frame(7200, true))[0]!)[0]!.tracks[0]!.baseTime).toBe(7200);
  });
});

describe('B-frames (x264 and x265 -bf 2, as a pushed MPEG-TS brings them)', () => {
  /** The times written are the frames' own: presentation times as they came (B-frames go back), decode times rising, never after them. */
  function checkTimes(file: Uint8Array, frames: MediaFrame[]): void {
    const times = sampleTimes(file);
    expect(times).toHaveLength(frames.length);
    expect(times.map((t) => t.pts - times[0]!.pts)).toEqual(frames.map((f) => (f.timestamp - frames[0]!.timestamp) | 0));
    times.forEach((t, i) => {
      expect(t.dts).toBeLessThanOrEqual(t.pts);
      if (i > 0) expect(t.dts).toBeGreaterThan(times[i - 1]!.dts);
    });
    expect(findBoxes(file, ['moof', 'traf', 'trun']).some((trun) => trun.body[0] === 1)).toBe(true);
  }

  it.each(['H264', 'H265'] as const)('%s live: a fragment per frame as it comes, the first decode time at 0', (codec) => {
    const { frames, file } = bFramesLive(codec);
    expect(readFragments(file)).toHaveLength(frames.length);
    const first = sampleTimes(file)[0]!;
    // The SPS says how far frames reorder: the first frame is shown that many frames after it is decoded.
    expect(first.dts).toBe(0);
    expect(first.pts).toBe(2 * 3600);
    checkTimes(file, frames);
  });

  it('a GOP per fragment (HLS segments), with exact durations from the decode times', () => {
    const { frames, gops, file } = bFramesGops();
    expect(gops[1]![0]!.keyframe).toBe(true);
    expect(readFragments(file).flatMap((f) => f.tracks[0]!.samples.slice(0, -1).map((s) => s.duration))).toEqual(new Array(48).fill(3600));
    checkTimes(file, frames);
  });

  it('learns B-frames whose SPS is not known when the track starts: exact after the first frames', () => {
    const { frames: bare, file } = bFramesLearned();
    const times = sampleTimes(file);
    times.forEach((t, i) => {
      expect(t.dts).toBeLessThanOrEqual(t.pts);
      if (i > 0) expect(t.dts).toBeGreaterThan(times[i - 1]!.dts);
    });
    expect(times.slice(5).map((t) => t.pts - times[0]!.pts)).toEqual(bare.slice(5).map((f) => f.timestamp - bare[0]!.timestamp));
  });

  it('keeps a stream without B-frames as it was: decode time = presentation time, no composition offsets', () => {
    const h264Plain = timed('H264', videoAccessUnits('H264', 10), 3600, 0xffff0000, (d) => isKeyframe('H264', d));
    const muxer = createFmp4Muxer([{ kind: 'video', codec: { name: 'H264', clockRate: 90000, payloadType: 96 } }]);
    const file = Buffer.concat([muxer.init() ?? new Uint8Array(), ...h264Plain.map((frame) => muxer.fragment([{ track: 0, frame }]))]);
    const truns = findBoxes(file, ['moof', 'traf', 'trun']);
    expect(truns).toHaveLength(h264Plain.length);
    expect(truns.every((trun) => trun.body[0] === 0 && (trun.body[3]! & 0x08) === 0)).toBe(true);
    expect(readFragments(file).map((f) => f.tracks[0]!.baseTime)).toEqual(h264Plain.map((_, i) => i * 3600));
  });
});
