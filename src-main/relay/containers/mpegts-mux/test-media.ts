import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { MediaFrame } from '../../core/media';
import { splitAnnexB, toAvcc } from '../../codecs/h264/nal';
import { h265NalType } from '../../codecs/h265/rtp-h265';
import { audioSpecificConfigFromAdts } from '../../frames/codec-description';

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
