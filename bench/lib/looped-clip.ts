import { spawn, type ChildProcess } from 'node:child_process';

/**
 * A camera for the benchmarks: a clip encoded once, sent as is in real time and looped, by
 * ffmpeg publishing RTSP over TCP to `url`, so no encoder competes with what is measured.
 */
export function publishLoopedClip(clip: string, url: string): ChildProcess {
  const args = ['-hide_banner', '-loglevel', 'error', '-re', '-stream_loop', '-1', '-i', clip, '-c', 'copy'];
  return spawn('ffmpeg', [...args, '-f', 'rtsp', '-rtsp_transport', 'tcp', url], { stdio: 'ignore' });
}
