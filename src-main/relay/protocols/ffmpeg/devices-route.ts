import type { HttpRouter } from '@main/platform/http/router';
import { sendSources } from '../discovery/sources-answer';
import { listCaptureDevices } from './devices';

/**
 * GET /api/ffmpeg/devices: this machine's cameras and microphones as `ffmpeg:device?...`
 * sources (go2rtc's answer), asked of ffmpeg each time so a camera plugged in shows up.
 * Adding one is for the config file: the API refuses device inputs.
 */
export function registerDevicesRoute(http: HttpRouter, ffmpegBinary: string): void {
  http.add([
    { method: 'GET', path: '/api/ffmpeg/devices', handler: async ({ res }) => sendSources(res, await listCaptureDevices(ffmpegBinary)) },
  ]);
}
