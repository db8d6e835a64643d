import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { promisify } from 'node:util';
import type { Codec, MediaFrame } from '../../core/media';
import { splitAnnexB, toAvcc } from '../../codecs/h264/nal';
import { h265NalType } from '../../codecs/h265/rtp-h265';
import { audioSpecificConfigFromAdts } from '../../frames/codec-description';
import { createTsDemuxer } from '../mpegts-demux/ts-demuxer';
import { demuxAll } from '../test-media';

const run = promisify(execFile);

/**
 * Test media made by ffmpeg (for this folder's tests): a 320x240 25 fps test pattern as H.264 or
 * H.265 access units (AVCC, as the relay hands them to outputs) and AAC frames with their
 * AudioSpecificConfig, the way a depacketizer would deliver them.
 */
export async function encodeVideo(codec: 'H264' | 'H265', frames: number): Promise<Uint8Array[]> {
  const [encoder, bsf] = codec === 'H264' ? ['libx264', 'h264_metadata=aud=insert'] : ['libx265', 'hevc_metadata=aud=insert'];
  const { stdout } = await run(
    'ffmpeg',
    ['-v', 'error', '-f', 'lavfi', '-i', `testsrc=size=320x240:rate=25`, '-frames:v', String(frames), '-c:v', encoder, '-preset', 'ultrafast', '-g', '25', '-bf', '0', '-pix_fmt', 'yuv420p', ...(codec === 'H265' ? ['-x265-params', 'log-level=error'] : []), '-bsf:v', bsf, '-f', codec === 'H264' ? 'h264' : 'hevc', 'pipe:1'],
    { encoding: 'buffer', maxBuffer: 64 << 20 },
  );
  const audType = codec === 'H264' ? 9 : 35;
  const typeOf = (u: Uint8Array) => (codec === 'H264' ? u[0]! & 0x1f : h265NalType(u));
  const units: Uint8Array[][] = [];
  for (const unit of splitAnnexB(new Uint8Array(stdout))) {
    if (typeOf(unit) === audType) units.push([]);
    else units.at(-1)?.push(unit);
  }
  return units.filter((u) => u.length > 0).map(toAvcc);
}

export function isKeyframe(codec: 'H264' | 'H265', avcc: Uint8Array): boolean {
  // Parameter sets come only before keyframes in ffmpeg's output (-g 25, no scene cuts needed).
  const firstType = codec === 'H264' ? avcc[4]! & 0x1f : h265NalType(avcc.subarray(4));
  return codec === 'H264' ? firstType === 7 || firstType === 5 : firstType === 32 || (firstType >= 16 && firstType <= 21);
}

export async function encodeAac(seconds: number, sampleRate = 44100): Promise<{ config: Uint8Array; frames: Uint8Array[] }> {
  const { stdout } = await run(
    'ffmpeg',
    ['-v', 'error', '-f', 'lavfi', '-i', `sine=frequency=440:sample_rate=${sampleRate}:duration=${seconds}`, '-c:a', 'aac', '-b:a', '64k', '-f', 'adts', 'pipe:1'],
    { encoding: 'buffer', maxBuffer: 16 << 20 },
  );
  const bytes = new Uint8Array(stdout);
  const frames: Uint8Array[] = [];
  let offset = 0;
  while (offset + 7 <= bytes.length) {
    const length = ((bytes[offset + 3]! & 0x03) << 11) | (bytes[offset + 4]! << 3) | (bytes[offset + 5]! >> 5);
    const headerSize = bytes[offset + 1]! & 0x01 ? 7 : 9;
    frames.push(bytes.subarray(offset + headerSize, offset + length));
    offset += length;
  }
  return { config: audioSpecificConfigFromAdts(bytes.subarray(0, 7)), frames };
}

/** Frames with RTP-style timestamps from `start` (which may sit just before the 32-bit wrap). */
export function timed(codec: string, payloads: Uint8Array[], step: number, start: number, keyframe: (data: Uint8Array) => boolean): MediaFrame[] {
  return payloads.map((data, i) => ({ codec, timestamp: (start + i * step) >>> 0, keyframe: keyframe(data), data }));
}

/**
 * H.264 or H.265 with B-frames (x264/x265 `-preset veryfast -bf 2 -g 25`, no zerolatency), as a
 * pushed MPEG-TS brings them to the relay: access units in decode order, their presentation
 * times as timestamps, moved by `offset` (to cross the 32-bit wrap).
 */
export async function encodeWithBFrames(codec: 'H264' | 'H265', seconds: number, offset = 0): Promise<{ codec: Codec; frames: MediaFrame[] }> {
  const encoder = codec === 'H264' ? ['libx264'] : ['libx265', '-x265-params', 'log-level=error'];
  const { stdout } = await run(
    'ffmpeg',
    ['-v', 'error', '-f', 'lavfi', '-i', `testsrc=size=320x240:rate=25:duration=${seconds}`, '-c:v', ...encoder, '-preset', 'veryfast', '-bf', '2', '-g', '25', '-pix_fmt', 'yuv420p', '-f', 'mpegts', 'pipe:1'],
    { encoding: 'buffer', maxBuffer: 64 << 20 },
  );
  const { tracks, frames } = demuxAll(createTsDemuxer, new Uint8Array(stdout), 188 * 100);
  return { codec: tracks[0]!.codec, frames: frames.map(({ frame }) => ({ ...frame, timestamp: (frame.timestamp + offset) >>> 0 })) };
}

/** How ffprobe and ffmpeg read the video of a file or URL (`seconds`: how much of a live one). */
export interface VideoReading {
  /** What `ffmpeg -v error` printed while decoding (empty: not one error). */
  errors: string;
  /** Frames ffmpeg decoded. */
  decoded: number;
  /** Packets in the order stored (decode order): presentation and decode times, in the stream's time base. */
  packets: Array<{ pts: number; dts: number }>;
  /** The decoded frames' best_effort_timestamp, in the order the decoder gave them out. */
  shown: number[];
}

export async function readVideo(input: string, seconds?: number): Promise<VideoReading> {
  const limit = seconds === undefined ? [] : ['-t', String(seconds)];
  const interval = seconds === undefined ? [] : ['-read_intervals', `%+${seconds}`];
  const [decode, probe] = await Promise.all([
    run('ffmpeg', ['-hide_banner', '-v', 'error', '-stats', '-i', input, ...limit, '-map', '0:v:0', '-f', 'null', '-'], { maxBuffer: 16 << 20 }),
    run('ffprobe', ['-v', 'error', ...interval, '-select_streams', 'v:0', '-show_entries', 'packet=pts,dts:frame=best_effort_timestamp', '-of', 'json', input], { maxBuffer: 64 << 20 }),
  ]);
  const counts = [...decode.stderr.matchAll(/frame=\s*(\d+)/g)].map((m) => Number(m[1]));
  // Asked for both, ffprobe lists packets and frames in one list, as it read and decoded them.
  const parsed = JSON.parse(probe.stdout) as { packets_and_frames?: Array<{ type: string; pts?: number; dts?: number; best_effort_timestamp?: number }> };
  const entries = parsed.packets_and_frames ?? [];
  return {
    errors: decode.stderr.replace(/^frame=.*$/gm, '').replace(/\r/g, '').trim(),
    decoded: counts.at(-1) ?? 0,
    packets: entries.filter((e) => e.type === 'packet').map((p) => ({ pts: Number(p.pts), dts: Number(p.dts) })),
    shown: entries.filter((e) => e.type === 'frame').map((f) => Number(f.best_effort_timestamp)),
  };
}

/**
 * What is wrong with a reading of B-frame video, as sentences (none: all good): decode times
 * must rise, never pass the presentation time, the file must really reorder (a presentation
 * time below an earlier one), and the decoder must give frames out in presentation order,
 * `step` apart when given.
 */
export function decodeOrderProblems(reading: VideoReading, step?: number): string[] {
  const problems: string[] = [];
  const { packets, shown } = reading;
  packets.forEach((p, i) => {
    if (!(p.dts <= p.pts)) problems.push(`packet ${i}: dts ${p.dts} after pts ${p.pts}`);
    if (i > 0 && !(p.dts > packets[i - 1]!.dts)) problems.push(`packet ${i}: dts ${p.dts} not above ${packets[i - 1]!.dts}`);
  });
  if (!packets.some((p, i) => i > 0 && p.pts < packets[i - 1]!.pts)) problems.push('no packet is shown before the one decoded ahead of it: no B-frames');
  shown.forEach((t, i) => {
    if (i === 0) return;
    const gap = t - shown[i - 1]!;
    if (!(gap > 0) || (step !== undefined && gap !== step)) problems.push(`frame ${i}: shown at ${t}, ${gap} after the one before`);
  });
  return problems;
}

/**
 * A camera that encodes as x264 does files by default (B-frames: veryfast, -bf 2, no
 * zerolatency), 320x240 25 fps with AAC, publishing to the relay over RTSP/TCP (the relay's
 * outputs' tests).
 */
export function publishWithBFrames(url: string, seconds = 120): ChildProcess {
  return spawn(
    'ffmpeg',
    ['-hide_banner', '-loglevel', 'error', '-re', '-f', 'lavfi', '-i', `testsrc=size=320x240:rate=25:duration=${seconds}`, '-f', 'lavfi', '-i', `sine=frequency=440:sample_rate=44100:duration=${seconds}`,
      '-c:v', 'libx264', '-preset', 'veryfast', '-bf', '2', '-g', '25', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-b:a', '64k', '-f', 'rtsp', '-rtsp_transport', 'tcp', url],
    { stdio: 'ignore' },
  );
}
