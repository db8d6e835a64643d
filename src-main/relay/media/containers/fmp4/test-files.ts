import type { MediaFrame } from '@main/relay/core/media';
import { fromAvcc, toAvcc } from '../../codecs/h264/nal';
import { aacCodec, h264Codec } from '../../frames/codec-description';
import { createPcmToFlac } from '../../codecs/flac/pcm-to-flac';
import { aac44100, bFrameSource, fixture, isKeyframe, timed, videoAccessUnits } from '@main/relay/test/media-fixtures';
import { createFmp4Muxer, type Fmp4TrackInput } from './muxer';
import { createFmp4LiveWriter } from './live-writer';
import { readFragments } from './box-reader';

/**
 * The fMP4 files the muxer and the live writer make of recorded media (see the fixtures'
 * README), one builder per case: fmp4.test.ts checks their boxes and times, and
 * fmp4.interop.test.ts that ffprobe and ffmpeg read the same files.
 */

/** Opus packets of an Ogg stream (RFC 7845), without the OpusHead and OpusTags header packets. */
function oggOpusPackets(stream: Buffer): Uint8Array[] {
  const packets: Uint8Array[] = [];
  let current: Uint8Array[] = [];
  for (let offset = 0; offset + 27 <= stream.length;) {
    const segments = stream[offset + 26]!;
    const table = stream.subarray(offset + 27, offset + 27 + segments);
    let at = offset + 27 + segments;
    for (const lacing of table) {
      current.push(stream.subarray(at, at + lacing));
      at += lacing;
      if (lacing < 255) {
        packets.push(Buffer.concat(current));
        current = [];
      }
    }
    offset = at;
  }
  return packets.slice(2);
}

/**
 * 2 s of 320x240 25 fps without B-frames (x264 ultrafast, x265 ultrafast zerolatency), as RTP
 * carries them from cameras (presentation times only, starting near the 31-bit mark), and 2 s
 * of 44.1 kHz AAC.
 */
export const h264 = (): MediaFrame[] => timed('H264', videoAccessUnits('H264'), 3600, 0x7fffff00, (d) => isKeyframe('H264', d));
const h265 = (): MediaFrame[] => timed('H265', videoAccessUnits('H265'), 3600, 0x7fffff00, (d) => isKeyframe('H265', d));
export function aac(): { asc: Uint8Array; frames: MediaFrame[] } {
  const { config, frames } = aac44100();
  return { asc: config, frames: frames.map((data, i) => ({ codec: 'MPEG4-GENERIC', timestamp: 5000 + i * 1024, keyframe: true, data })) };
}

/** Feeds frames to a live writer in time order, as a camera would send them. */
function writeLive(tracks: Fmp4TrackInput[], perTrack: Array<{ frames: MediaFrame[]; seconds: number }>, duration?: number): Uint8Array {
  const events = perTrack.flatMap(({ frames, seconds }, track) => frames.map((frame, i) => ({ track, frame, at: i * seconds * 1000 })));
  events.sort((a, b) => a.at - b.at);
  const writer = createFmp4LiveWriter({ tracks, duration, now: () => 0 });
  const chunks = events.flatMap((e) => writer.push(e.track, e.frame, e.at));
  return Buffer.concat([...chunks, ...writer.flush()]);
}

/** H.264 (parameter sets from the first keyframe) with AAC, written live. */
export function h264AacLive(): Uint8Array {
  const sound = aac();
  const tracks: Fmp4TrackInput[] = [
    { kind: 'video', codec: { name: 'H264', clockRate: 90000, payloadType: 96 } },
    { kind: 'audio', codec: aacCodec(sound.asc) },
  ];
  return writeLive(tracks, [
    { frames: h264(), seconds: 0.04 },
    { frames: sound.frames, seconds: 1024 / 44100 },
  ]);
}

/** H.264 with its parameter sets from the SDP, a GOP per fragment. */
export function h264Gops(): { init: Uint8Array; file: Uint8Array } {
  const frames = h264();
  const units = fromAvcc(frames[0]!.data);
  const [sps, pps] = [7, 8].map((type) => units.find((u) => (u[0]! & 0x1f) === type));
  const muxer = createFmp4Muxer([{ kind: 'video', codec: h264Codec(sps!, pps!) }]);
  const init = muxer.init()!;
  const gops = [frames.slice(0, 25), frames.slice(25)];
  return { init, file: Buffer.concat([init, ...gops.map((gop) => muxer.fragment(gop.map((frame) => ({ track: 0, frame }))))]) };
}

/** H.265 learned from the first keyframe, a fragment per frame. */
export function h265File(): { codecs: string; file: Uint8Array } {
  const frames = h265();
  const muxer = createFmp4Muxer([{ kind: 'video', codec: { name: 'H265', clockRate: 90000, payloadType: 96 } }]);
  muxer.learn(0, frames[0]!);
  return { codecs: muxer.codecs(), file: Buffer.concat([muxer.init()!, ...frames.map((frame) => muxer.fragment([{ track: 0, frame }]))]) };
}

/** 2 s of G.711 A-law in 20 ms packets, written live as alaw and as FLAC. */
export function alawFiles(): { alaw: Buffer; packets: MediaFrame[]; asAlaw: Uint8Array; asFlac: Uint8Array } {
  const alaw = fixture('alaw-8000-2s.alaw');
  const packets = Array.from({ length: alaw.length / 160 }, (_, i) => ({
    codec: 'PCMA',
    timestamp: i * 160,
    keyframe: true,
    data: alaw.subarray(i * 160, (i + 1) * 160),
  }));
  const pcma = { name: 'PCMA', clockRate: 8000, payloadType: 8 };
  const asAlaw = writeLive([{ kind: 'audio', codec: pcma }], [{ frames: packets, seconds: 0.02 }]);
  const flac = createPcmToFlac(pcma);
  const asFlac = writeLive([{ kind: 'audio', codec: flac.codec }], [{ frames: packets.flatMap((p) => flac.convert(p)), seconds: 0.02 }]);
  return { alaw, packets, asAlaw, asFlac };
}

/** 2 s of 48 kHz Opus in one fragment. */
export function opusFile(): { codecs: string; file: Uint8Array } {
  const frames = oggOpusPackets(fixture('opus-48000-2s.opus')).map((data, i) => ({
    codec: 'OPUS',
    timestamp: i * 960,
    keyframe: true,
    data,
  }));
  const muxer = createFmp4Muxer([{ kind: 'audio', codec: { name: 'OPUS', clockRate: 48000, channels: 2, payloadType: 111 } }]);
  return { codecs: muxer.codecs(), file: Buffer.concat([muxer.init()!, muxer.fragment(frames.map((frame) => ({ track: 0, frame })))]) };
}

/** B-frames (x264 or x265 -bf 2) crossing the 32-bit wrap, written live: a fragment per frame. */
export function bFramesLive(codec: 'H264' | 'H265'): { frames: MediaFrame[]; file: Uint8Array } {
  const source = bFrameSource(codec, 0xffff0000);
  return { frames: source.frames, file: writeLive([{ kind: 'video', codec: source.codec }], [{ frames: source.frames, seconds: 0.04 }]) };
}

/** x264 B-frames, a GOP per fragment (as HLS segments are). */
export function bFramesGops(): { frames: MediaFrame[]; gops: MediaFrame[][]; file: Uint8Array } {
  const source = bFrameSource('H264');
  const muxer = createFmp4Muxer([{ kind: 'video', codec: source.codec }]);
  const gops = [source.frames.slice(0, 25), source.frames.slice(25)];
  return {
    frames: source.frames,
    gops,
    file: Buffer.concat([muxer.init()!, ...gops.map((gop) => muxer.fragment(gop.map((frame) => ({ track: 0, frame }))))]),
  };
}

/**
 * x264 B-frames without in-band SPS, to a muxer without fmtp: its decode timeline has no hint
 * and learns the reordering as frames come (the init segment is one that knows the codec).
 */
export function bFramesLearned(): { frames: MediaFrame[]; file: Uint8Array } {
  const source = bFrameSource('H264');
  const withSets = createFmp4Muxer([{ kind: 'video', codec: source.codec }]);
  const bare = source.frames.map((f) => ({ ...f, data: toAvcc(fromAvcc(f.data).filter((u) => ![7, 8].includes(u[0]! & 0x1f))) }));
  const muxer = createFmp4Muxer([{ kind: 'video', codec: { name: 'H264', clockRate: 90000, payloadType: 96 } }]);
  return { frames: bare, file: Buffer.concat([withSets.init()!, ...bare.map((frame) => muxer.fragment([{ track: 0, frame }]))]) };
}

/** Decode and presentation times of each video sample, from the tfdt, durations and composition offsets. */
export function sampleTimes(file: Uint8Array): Array<{ dts: number; pts: number }> {
  return readFragments(file).flatMap((f) => {
    const run = f.tracks.find((t) => t.trackId === 1);
    let dts = run?.baseTime ?? 0;
    return (run?.samples ?? []).map((s) => {
      const times = { dts, pts: dts + s.compositionOffset };
      dts += s.duration;
      return times;
    });
  });
}
