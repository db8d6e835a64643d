import { listenFailure } from '../../platform/listen';
import type { ProtocolContext } from '../protocols';
import { startRtmpServer } from './rtmp-server';
import { dialRtmp } from './rtmp-source';

/** `rtmp://` sources, and the RTMP server for publishers when `rtmp.listen` is set (off by default, as in go2rtc). */
export async function registerRtmp({ ctx, schemes, streams, tasks, logger }: ProtocolContext): Promise<void> {
  schemes.register('rtmp', { dial: (url, context) => dialRtmp(url, context.signal) });
  const section = ctx.config.section('rtmp') as { listen?: string } | undefined;
  const listen = section?.listen ?? '';
  if (listen === '') return;
  const log = logger.child('rtmp');
  const server = await startRtmpServer({ listen, streams, tasks, logger: log }).catch((error: Error) => {
    log.error(`RTMP server not started: ${listenFailure(error, listen, 'change rtmp.listen (empty turns the RTMP server off)').message}`);
    return undefined;
  });
  if (!server) return;
  log.info('RTMP server listening', { listen, port: server.port });
  ctx.onClose(() => server.close());
}
