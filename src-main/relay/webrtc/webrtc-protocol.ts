import type { ProtocolContext } from '../protocols';
import { openIceNetwork, type IceNetwork } from './ice/ice-network';
import { createWebrtcDialer } from './webrtc-client';
import { registerWebrtcRoutes } from './webrtc-routes';

/**
 * WebRTC viewers on the API server (go2rtc's /api/webrtc) with their media on `webrtc.listen`;
 * the network is returned for /api/ws, whose WebRTC mode shares it.
 */
export async function registerWebrtc({ ctx, streams, tasks, logger, webrtc, schemes }: ProtocolContext): Promise<IceNetwork> {
  const network = await openIceNetwork(webrtc, logger.child('webrtc'));
  ctx.onClose(() => network.close());
  registerWebrtcRoutes(ctx, { streams, tasks, network });
  schemes.register('webrtc', { dial: createWebrtcDialer(tasks) });
  return network;
}
