import { parseListen } from '../../platform/config/app-settings';
import type { ProtocolContext } from '../protocols';
import { dialRtsp } from './rtsp-client';
import { startRtspServer } from './rtsp-server';

/** rtsp:// and rtsps:// sources, and the RTSP server on `rtsp.listen`. */
export async function registerRtsp({ ctx, schemes, streams, tasks, logger, rtsp }: ProtocolContext): Promise<void> {
  schemes.register('rtsp', { dial: dialRtsp });
  schemes.register('rtsps', { dial: dialRtsp });
  if (rtsp.listen === '') return; // an empty listen turns the server off, as in go2rtc
  const { host, port } = parseListen(rtsp.listen);
  const server = await startRtspServer({
    host,
    port,
    streams,
    tasks,
    logger: logger.child('rtsp'),
    defaultQuery: rtsp.default_query,
    username: rtsp.username,
    password: rtsp.password,
  });
  rtsp.port = server.port;
  ctx.onClose(() => server.close());
}
