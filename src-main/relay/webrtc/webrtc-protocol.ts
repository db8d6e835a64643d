import type { ProtocolContext } from '../protocols';
import { registerWebrtcRoutes } from './webrtc-routes';

/** Host candidates besides the machine's interfaces: loopback, so viewers on this machine always connect. */
export const EXTRA_HOST_ADDRESSES = ['127.0.0.1'];

/** WebRTC viewers on the API server (go2rtc's /api/webrtc; /api/ws is the WebSocket API's). */
export function registerWebrtc({ ctx, streams, tasks }: ProtocolContext): void {
  registerWebrtcRoutes(ctx, { streams, tasks, hostAddresses: EXTRA_HOST_ADDRESSES });
}
