import type { ProtocolContext } from '../protocols';
import { registerWebrtcRoutes } from './webrtc-routes';

/** WebRTC viewers on the API server (go2rtc's /api/webrtc); loopback is always a candidate. */
export function registerWebrtc({ ctx, streams, tasks }: ProtocolContext): void {
  registerWebrtcRoutes(ctx, { streams, tasks, hostAddresses: ['127.0.0.1'] });
}
