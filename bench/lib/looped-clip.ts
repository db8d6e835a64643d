import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

/** How the benchmarks' cameras encode: 720p-class H264 at 2 Mbit/s, a keyframe every 2 s at 25 fps. */
export const CAMERA_X264 = [
  '-c:v',
  'libx264',
  '-preset',
  'veryfast',
  '-tune',
  'zerolatency',
  '-b:v',
  '2M',
  '-maxrate',
  '2M',
  '-bufsize',
  '1M',
  '-g',
  '50',
  '-pix_fmt',
  'yuv420p',
];

/** A 30 s 1280x720 test-pattern clip in `dir`, encoded once so that sending it costs next to nothing. */
export function encodeCameraClip(dir: string): Promise<string> {
  const clip = join(dir, 'camera.mp4');
  const input = ['-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', 'testsrc2=size=1280x720:rate=25:duration=30'];
  return new Promise((resolve, reject) =>
    spawn('ffmpeg', [...input, ...CAMERA_X264, clip], { stdio: 'inherit' }).once('exit', (code) =>
      code === 0 ? resolve(clip) : reject(new Error(`ffmpeg could not make the camera clip (${code})`)),
    ),
  );
}

/**
 * A camera for the benchmarks: a clip encoded once, sent as is in real time and looped, by
 * ffmpeg publishing RTSP over TCP to `url`, so no encoder competes with what is measured.
 */
export function publishLoopedClip(clip: string, url: string): ChildProcess {
  const args = ['-hide_banner', '-loglevel', 'error', '-re', '-stream_loop', '-1', '-i', clip, '-c', 'copy'];
  return spawn('ffmpeg', [...args, '-f', 'rtsp', '-rtsp_transport', 'tcp', url], { stdio: 'ignore' });
}
