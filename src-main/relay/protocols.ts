import type { ProtocolContext } from './protocols/protocol-context';
import { registerRtsp } from './protocols/rtsp/rtsp-protocol';
import { registerFfmpeg } from './protocols/ffmpeg/ffmpeg-protocol';
import { registerExec } from './protocols/exec/exec-protocol';
import { registerEcho } from './protocols/echo/echo-protocol';
import { registerMjpeg } from './protocols/mjpeg/mjpeg-protocol';
import { registerExpr } from './protocols/expr/expr-protocol';
import { registerIngest } from './protocols/ingest/ingest-routes';
import { registerHttpSource } from './protocols/http-source/http-source';
import { registerHls } from './protocols/hls/hls-protocol';
import { registerMp4 } from './protocols/mp4/mp4-protocol';
import { registerWebrtc } from './protocols/webrtc/webrtc-protocol';
import { registerWsApi } from './api/ws-api';
import { registerRtspToWebrtc } from './protocols/rtsp-to-webrtc/rtsp-to-webrtc-routes';
import { registerWithRtspServer } from './protocols/rtsp/needs-rtsp-server';
import { registerPreload } from './protocols/preload/preload-routes';
import { registerRawStreams } from './protocols/raw-streams/raw-streams-protocol';
import { registerOnvifServer } from './protocols/onvif/onvif-server';
import { registerOnvifSource } from './protocols/onvif/onvif-source';
import { registerTcpSource } from './protocols/tcp-source/tcp-source';
import { registerDiscovery } from './protocols/discovery/discovery-routes';
import { registerRtmp } from './protocols/rtmp/rtmp-protocol';
import { registerWebtorrent } from './protocols/webtorrent/webtorrent-protocol';
import { registerRelaySource } from './protocols/relay-source/relay-source';

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
  registerRelaySource(protocols);
}
