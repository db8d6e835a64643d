import { parseListen } from '@main/platform/config/app-settings';
import { listenFailure } from '@main/platform/listen';
import type { ProtocolContext } from '../protocol-context';
import { createRtspDialer } from './rtsp-client';
import { startRtspServer, type RunningRtspServer } from './rtsp-server';

/** rtsp:// and rtsps:// sources, and the RTSP server on `rtsp.listen`. */
export async function registerRtsp({
  ctx,
  schemes,
  streams,
  tasks,
  logger,
  rtsp,
}: ProtocolContext): Promise<RunningRtspServer | undefined> {
  // One dialer for both schemes: it remembers cameras that refused UDP, and its sockets are tasks.
  const dial = createRtspDialer({ tasks, logger: logger.child('rtsp') });
  schemes.register('rtsp', { dial });
  schemes.register('rtsps', { dial });
  if (rtsp.listen === '') return undefined; // an empty listen turns the server off, as in go2rtc
  const { host, port } = parseListen(rtsp.listen);
  // A port in use must not take the console down with it (go2rtc logs and goes on as well).
  const server = await startRtspServer({
    host,
    port,
    streams,
    tasks,
    logger: logger.child('rtsp'),
    defaultQuery: rtsp.default_query,
    username: rtsp.username,
    password: rtsp.password,
    localAuth: rtsp.local_auth,
  }).catch((error: Error) => {
    const why = listenFailure(error, rtsp.listen, 'change rtsp.listen (an empty value turns the RTSP server off)');
    logger.error(`RTSP server not started: ${why.message}; ffmpeg: and exec: sources need it and will fail until it runs`);
    return undefined;
  });
  if (!server) return undefined;
  rtsp.port = server.port;
  ctx.onClose(() => server.close());
  return server;
}
