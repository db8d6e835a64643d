import type { ProtocolContext } from '../protocol-context';
import { openIceNetwork } from './ice/ice-network';
import { createOpusTranscoders } from './opus-transcoders';
import { createWebrtcDialer } from './webrtc-client';
import { registerWebrtcRoutes } from './webrtc-routes';
import type { WebrtcOutput } from './webrtc-session';

/**
 * WebRTC viewers and publishers on the API server (go2rtc's /api/webrtc) with their media on
 * `webrtc.listen`, and `webrtc:` sources. What sessions run on is returned for /api/ws and the
 * RTSPtoWebRTC API, which open sessions too.
 */
export async function registerWebrtc({ ctx, streams, tasks, logger, webrtc, schemes }: ProtocolContext): Promise<WebrtcOutput> {
  const network = await openIceNetwork(webrtc, logger.child('webrtc'));
  // ffmpeg: registers after WebRTC (it needs the RTSP server): looked up when a viewer needs it.
  const opus = createOpusTranscoders((url, context) => {
    const ffmpeg = schemes.resolve(url);
    if (!ffmpeg) return Promise.reject(new Error('ffmpeg: sources are off (the RTSP server is off)'));
    return ffmpeg.dial(url, context);
  });
  ctx.onClose(() => {
    opus.close();
    network.close();
  });
  const output: WebrtcOutput = { network, opus };
  registerWebrtcRoutes(ctx, { streams, tasks, callersAuthenticated: !!ctx.settings.api.username, ...output });
  schemes.register('webrtc', { dial: createWebrtcDialer(tasks) });
  return output;
}
