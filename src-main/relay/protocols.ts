import type { ProtocolContext } from './protocol-context';
import { registerRtsp } from './rtsp/rtsp-protocol';
import { registerFfmpeg } from './ffmpeg/ffmpeg-protocol';
import { registerExec } from './exec/exec-protocol';
import { registerEcho } from './echo/echo-protocol';
import { registerMjpeg } from './mjpeg/mjpeg-protocol';
import { registerExpr } from './expr/expr-protocol';
import { registerIngest } from './ingest/ingest-routes';
import { registerHttpSource } from './http-source/http-source';
import { registerHls } from './hls/hls-protocol';
import { registerMp4 } from './mp4/mp4-protocol';
import { registerWebrtc } from './webrtc/webrtc-protocol';
import { registerWsApi } from './api/ws-api';
import { registerRtspToWebrtc } from './rtsp-to-webrtc/rtsp-to-webrtc-routes';
import { registerWithRtspServer } from './core/needs-rtsp-server';
import { registerPreload } from './preload/preload-routes';
import { registerRawStreams } from './raw-streams/raw-streams-protocol';
import { registerOnvifServer } from './onvif/onvif-server';
import { registerOnvifSource } from './onvif/onvif-source';
import { registerTcpSource } from './tcp-source/tcp-source';
import { registerDiscovery } from './discovery/discovery-routes';
import { registerRtmp } from './rtmp/rtmp-protocol';
import { registerWebtorrent } from './webtorrent/webtorrent-protocol';

/** Every protocol of the relay joins here, one line each; the core never changes for one. */
export async function registerProtocols(protocols: ProtocolContext): Promise<void> {
  const rtspServer = await registerRtsp(protocols);
  registerEcho(protocols);
  const mjpeg = registerMjpeg(protocols);
  registerExpr(protocols);
  registerIngest(protocols);
  registerHttpSource(protocols);
  const hls = registerHls(protocols);
  registerMp4(protocols);
  registerRawStreams(protocols);
  const webrtc = await registerWebrtc(protocols);
  registerWsApi(protocols, { webrtc, hls, mjpeg });
  registerRtspToWebrtc(protocols, webrtc);
  // Child-process sources publish back into the RTSP server; without it their dials say so.
  registerWithRtspServer(protocols, rtspServer, registerFfmpeg);
  registerWithRtspServer(protocols, rtspServer, registerExec);
  registerPreload(protocols);
  registerOnvifServer(protocols);
  registerOnvifSource(protocols);
  registerTcpSource(protocols);
  registerDiscovery(protocols);
  await registerRtmp(protocols);
  registerWebtorrent(protocols, webrtc);
}
