import type { Codec, MediaFrame } from '../../relay/core/media';
import { aacCodec } from '../../relay/media/frames/codec-description';
import { aac44100, isKeyframe, videoAccessUnits } from '../../relay/test/media-fixtures';
import type { RecordedTrack } from '../segment-writer';

/** A frame as a camera's stream brings it: its track, and when it arrived (ms). */
export interface CameraFrame {
  track: number;
  frame: MediaFrame;
  arrivalMs: number;
}

/**
 * `seconds` of a camera from recorded media (fixtures): 320x240 H.264 at 25 fps with a
 * keyframe a second (the fixture's 2 s looped, its timestamps going on, near the 32-bit wrap)
 * and 44.1 kHz AAC, in arrival order; each frame arrives `delayMs` after it was taken
 * (`at` ms of wall clock for media time 0).
 */
export function cameraFrames(
  seconds: number,
  options: { at?: number; delayMs?: number; audio?: boolean } = {},
): { tracks: RecordedTrack[]; frames: CameraFrame[] } {
  const at = options.at ?? Date.UTC(2026, 10, 27, 8, 0, 0);
  const delay = options.delayMs ?? 80;
  const units = videoAccessUnits('H264');
  const sound = aac44100();
  const video: Codec = { name: 'H264', clockRate: 90000, payloadType: 96 };
  const tracks: RecordedTrack[] = [
    { kind: 'video', codec: video },
    ...(options.audio === false ? [] : [{ kind: 'audio' as const, codec: aacCodec(sound.config) }]),
  ];
  const frames: CameraFrame[] = [];
  for (let i = 0; i < seconds * 25; i++) {
    const data = units[i % units.length]!;
    frames.push({
      track: 0,
      frame: { codec: 'H264', timestamp: (0xfffe0000 + i * 3600) >>> 0, keyframe: isKeyframe('H264', data), data },
      arrivalMs: at + i * 40 + delay,
    });
  }
  if (options.audio !== false) {
    const count = Math.floor((seconds * 44100) / 1024);
    for (let i = 0; i < count; i++) {
      const data = sound.frames[i % sound.frames.length]!;
      frames.push({
        track: 1,
        frame: { codec: 'MPEG4-GENERIC', timestamp: (12345 + i * 1024) >>> 0, keyframe: true, data },
        arrivalMs: at + (i * 1024 * 1000) / 44100 + delay,
      });
    }
  }
  frames.sort((a, b) => a.arrivalMs - b.arrivalMs || a.track - b.track);
  return { tracks, frames };
}
