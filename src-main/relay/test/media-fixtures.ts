import { readFileSync } from 'node:fs';
import type { Codec, MediaFrame } from '../core/media';
import { splitAnnexB, toAvcc } from '../media/codecs/h264/nal';
import { h265NalType } from '../media/codecs/h265/rtp-h265';
import { audioSpecificConfigFromAdts } from '../media/frames/codec-description';
import { createTsDemuxer } from '../media/containers/mpegts-demux/ts-demuxer';
import { demuxAll } from '../media/containers/test-media';

/**
 * The media the codec and container tests read: files made once by ffmpeg and checked in
 * (fixtures/README.md says what each is and the command that made it), so these tests run in
 * the unit tier without starting an encoder.
 */
export function fixture(name: string): Buffer {
  return readFileSync(new URL(`./fixtures/${name}`, import.meta.url));
}

/** The datagrams of a recorded RTP session (`*.rtp`: each behind its 2-byte big-endian length). */
export function rtpCapture(name: string): Buffer[] {
  const bytes = fixture(name);
  const datagrams: Buffer[] = [];
  for (let at = 0; at + 2 <= bytes.length;) {
    const length = bytes.readUInt16BE(at);
    datagrams.push(bytes.subarray(at + 2, at + 2 + length));
    at += 2 + length;
  }
  return datagrams;
}

/** Raw AAC frames of an ADTS stream (headers removed) and the AudioSpecificConfig its first header describes. */
export function adtsFrames(bytes: Uint8Array): { config: Uint8Array; frames: Uint8Array[] } {
  const frames: Uint8Array[] = [];
  for (let offset = 0; offset + 7 <= bytes.length;) {
    const length = ((bytes[offset + 3]! & 0x03) << 11) | (bytes[offset + 4]! << 3) | (bytes[offset + 5]! >> 5);
    const headerSize = bytes[offset + 1]! & 0x01 ? 7 : 9;
    frames.push(bytes.subarray(offset + headerSize, offset + length));
    offset += length;
  }
  return { config: audioSpecificConfigFromAdts(bytes.subarray(0, 7)), frames };
}

/** 2 s of 44.1 kHz mono AAC-LC at 64 kb/s, as frames with their AudioSpecificConfig (as a depacketizer delivers them). */
export const aac44100 = () => adtsFrames(fixture('aac-44100-mono-2s.aac'));

/**
 * The first `count` access units (at most 50) of a 320x240 25 fps test pattern with a keyframe
 * a second and no B-frames, as AVCC (as the relay hands them to outputs): x264 ultrafast, or
 * x265 ultrafast zerolatency. The streams have a delimiter before each access unit.
 */
export function videoAccessUnits(codec: 'H264' | 'H265', count = 50): Uint8Array[] {
  const [file, delimiter] = codec === 'H264' ? ['h264-aud-320x240-2s.h264', 9] : ['h265-aud-320x240-2s.hevc', 35];
  const typeOf = (u: Uint8Array) => (codec === 'H264' ? u[0]! & 0x1f : h265NalType(u));
  const units: Uint8Array[][] = [];
  for (const unit of splitAnnexB(fixture(file))) {
    if (typeOf(unit) === delimiter) units.push([]);
    else units.at(-1)?.push(unit);
  }
  return units
    .filter((u) => u.length > 0)
    .slice(0, count)
    .map(toAvcc);
}

export function isKeyframe(codec: 'H264' | 'H265', avcc: Uint8Array): boolean {
  // Parameter sets come only before keyframes in these streams (-g 25, no scene cuts needed).
  const firstType = codec === 'H264' ? avcc[4]! & 0x1f : h265NalType(avcc.subarray(4));
  return codec === 'H264' ? firstType === 7 || firstType === 5 : firstType === 32 || (firstType >= 16 && firstType <= 21);
}

/** Frames with RTP-style timestamps from `start` (which may sit just before the 32-bit wrap). */
export function timed(
  codec: string,
  payloads: Uint8Array[],
  step: number,
  start: number,
  keyframe: (data: Uint8Array) => boolean,
): MediaFrame[] {
  return payloads.map((data, i) => ({ codec, timestamp: (start + i * step) >>> 0, keyframe: keyframe(data), data }));
}

/**
 * 2 s of H.264 or H.265 with B-frames (x264/x265 `-preset veryfast -bf 2 -g 25`), as a pushed
 * MPEG-TS brings them to the relay: access units in decode order, their presentation times as
 * timestamps, moved by `offset` (to cross the 32-bit wrap).
 */
export function bFrameSource(codec: 'H264' | 'H265', offset = 0): { codec: Codec; frames: MediaFrame[] } {
  const file = codec === 'H264' ? 'h264-bframes-320x240-2s.mpegts' : 'h265-bframes-320x240-2s.mpegts';
  const { tracks, frames } = demuxAll(createTsDemuxer, fixture(file), 188 * 100);
  return { codec: tracks[0]!.codec, frames: frames.map(({ frame }) => ({ ...frame, timestamp: (frame.timestamp + offset) >>> 0 })) };
}
