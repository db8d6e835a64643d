import type { ProtocolContext } from '../protocols';
import { registerWebrtcRoutes } from './webrtc-routes';
import { registerWebrtcSocket } from './webrtc-socket';

/** WebRTC viewers on the API server (go2rtc's /api/webrtc and /api/ws); loopback is always a candidate. */
export function registerWebrtc({ ctx, streams, tasks }: ProtocolContext): void {
  const deps = { streams, tasks, hostAddresses: ['127.0.0.1'] };
  registerWebrtcRoutes(ctx, deps);
  registerWebrtcSocket(ctx, deps);
}
