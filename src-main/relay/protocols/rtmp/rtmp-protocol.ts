import { listenFailure } from '@main/platform/listen';
import type { ProtocolContext } from '../protocol-context';
import { startRtmpServer } from './rtmp-server';
import { dialRtmp } from './rtmp-source';

/** `rtmp://` sources, and the RTMP server for publishers when `rtmp.listen` is set (off by default, as in go2rtc). */
export async function registerRtmp({ ctx, schemes, streams, tasks, logger, rtsp }: ProtocolContext): Promise<void> {
  schemes.register('rtmp', { dial: (url, context) => dialRtmp(url, context.signal) });
  // Validated by the relay's config schema (relay-module.ts): a string and a boolean when present.
  const section = ctx.config.section('rtmp') as { listen?: string; allow_publish_over_sources?: boolean } | undefined;
  const listen = section?.listen ?? '';
  if (listen === '') return;
  const log = logger.child('rtmp');
  const server = await startRtmpServer({
    listen,
    streams,
    tasks,
    logger: log,
    // The RTSP server's login, so one setting guards every way of publishing.
    login: rtsp.username ? { username: rtsp.username, password: rtsp.password ?? '', localAuth: rtsp.local_auth } : undefined,
    allowPublishOverSources: section?.allow_publish_over_sources === true,
  }).catch((error: Error) => {
    log.error(`RTMP server not started: ${listenFailure(error, listen, 'change rtmp.listen (empty turns the RTMP server off)').message}`);
    return undefined;
  });
  if (!server) return;
  log.info('RTMP server listening', { listen, port: server.port });
  ctx.onClose(() => server.close());
}
