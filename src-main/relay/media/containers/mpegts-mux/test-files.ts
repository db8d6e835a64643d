import type { MediaFrame } from '@main/relay/core/media';
import { aacCodec, h264Codec, h265Codec } from '../../frames/codec-description';
import { fromAvcc, toAvcc } from '../../codecs/h264/nal';
import { aac44100, bFrameSource, isKeyframe, timed, videoAccessUnits } from '@main/relay/test/media-fixtures';
import { createMpegTsMuxer } from './mpegts-muxer';

/**
 * The MPEG-TS the muxer makes of recorded media (see the fixtures' README), one builder per case:
 * mpegts-muxer.test.ts checks what the muxer says and writes, mpegts-muxer.interop.test.ts that
 * ffprobe and ffmpeg read the same streams.
 */

const NEAR_WRAP = 0xffff0000; // the 32-bit RTP clock wraps after 18 video frames

/** 2 s of 320x240 25 fps x264 (50 access units, a keyframe a second) and 2 s of 44.1 kHz AAC. */
export const h264 = () => videoAccessUnits('H264', 50);
export const aac = aac44100;

export function h264Track() {
  const units = fromAvcc(h264()[0]!);
  return h264Codec(
    units.find((u) => (u[0]! & 0x1f) === 7)!,
    units.find((u) => (u[0]! & 0x1f) === 8)!,
  );
}

/** Frames of all tracks in the order a live source would deliver them (by time). */
function interleave(...tracks: Array<{ index: number; frames: MediaFrame[]; seconds: (i: number) => number }>) {
  return tracks.flatMap((t) => t.frames.map((frame, i) => ({ index: t.index, frame, at: t.seconds(i) }))).sort((a, b) => a.at - b.at);
}

/** H.264 + AAC as they come live, with RTP timestamps across the wrap. */
export function h264AacStream(): Buffer {
  const sound = aac();
  const muxer = createMpegTsMuxer([h264Track(), aacCodec(sound.config)]);
  const order = interleave(
    { index: 0, frames: timed('H264', h264(), 3600, NEAR_WRAP, (d) => isKeyframe('H264', d)), seconds: (i) => i / 25 },
    { index: 1, frames: timed('MPEG4-GENERIC', sound.frames, 1024, 123456, () => true), seconds: (i) => (i * 1024) / 44100 },
  );
  return Buffer.concat([muxer.header(), ...order.map((o) => muxer.write(o.index, o.frame)!.data)]);
}

/**
 * 30 frames of H.265 whose VPS, SPS and PPS come only in the SDP, never in band (as some cameras
 * send them): the header and each frame as written.
 */
export function h265WithoutParameterSets(): { frames: MediaFrame[]; header: Uint8Array; written: Uint8Array[] } {
  const h265 = videoAccessUnits('H265', 30);
  const keyframes = h265.map((d) => isKeyframe('H265', d));
  const [vps, sps, pps] = fromAvcc(h265[0]!);
  const stripped = h265.map((d) => toAvcc(fromAvcc(d).filter((u) => ((u[0]! >> 1) & 0x3f) < 32 || ((u[0]! >> 1) & 0x3f) > 34)));
  const muxer = createMpegTsMuxer([h265Codec(vps!, sps!, pps!)]);
  const frames = timed('H265', stripped, 3600, 0, () => false).map((f, i) => ({ ...f, keyframe: keyframes[i]! }));
  const written = frames.map((f) => muxer.write(0, f)!.data);
  return { frames, header: muxer.header(), written };
}

/** x264 or x265 with B-frames (-bf 2) across the RTP wrap: the source frames and what the muxer wrote for each. */
export function bFrameStream(codec: 'H264' | 'H265') {
  const source = bFrameSource(codec, NEAR_WRAP);
  const muxer = createMpegTsMuxer([source.codec]);
  const written = source.frames.map((f) => muxer.write(0, f)!);
  return { frames: source.frames, written, file: Buffer.concat([muxer.header(), ...written.map((w) => w.data)]) };
}

/** AAC alone, each frame behind an ADTS header. */
export function aacAlone(): { frames: number; ts: Buffer } {
  const sound = aac();
  const muxer = createMpegTsMuxer([aacCodec(sound.config)]);
  const frames = timed('MPEG4-GENERIC', sound.frames, 1024, NEAR_WRAP, () => true);
  return { frames: sound.frames.length, ts: Buffer.concat([muxer.header(), ...frames.map((f) => muxer.write(0, f)!.data)]) };
}
