import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export interface GstCamera {
  /** `rtsp://127.0.0.1:<port>/stream` */
  url: string;
  port: number;
  stop(): Promise<void>;
}

export interface GstCameraOptions {
  /** Picture size, `WIDTHxHEIGHT` (default 320x240). */
  size?: string;
  /** ONVIF server with a backchannel (the camera's speaker), as ONVIF cameras and NVRs serve it. */
  onvif?: boolean;
  /** 0 (the default) picks a free port; a camera restarted on its old port looks like a reboot. */
  port?: number;
}

const SCRIPT = fileURLToPath(new URL('./gst-camera.py', import.meta.url));
/** Debian's python3 has the GObject bindings; another python3 on PATH may not. */
const PYTHON = '/usr/bin/python3';

/** Starts a camera served by GStreamer's RTSP server (gst-rtsp-server) on loopback. */
export function startGstCamera(options: GstCameraOptions = {}): Promise<GstCamera> {
  const args = [SCRIPT, '--size', options.size ?? '320x240', '--port', String(options.port ?? 0), ...(options.onvif ? ['--onvif'] : [])];
  const child = spawn(PYTHON, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  };
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(() => void stop().then(() => reject(new Error(`GStreamer camera did not start: ${err}`))), 15_000);
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const port = /PORT (\d+)/.exec(out)?.[1];
      if (!port) return;
      clearTimeout(timer);
      resolve({ url: `rtsp://127.0.0.1:${port}/stream`, port: Number(port), stop });
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`GStreamer camera exited (${code}): ${err}`));
    });
  });
}
