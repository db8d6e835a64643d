import { createServer, type Server, type Socket } from 'node:net';
import { parseListen } from '@main/platform/config/app-settings';
import { listen } from '@main/platform/listen';
import type { Logger } from '@main/platform/logger';
import type { StreamRegistry } from '../../core/stream-registry';
import type { TaskRegistry } from '../../core/task-registry';
import type { PublishLogin } from './publish-login';
import { servePublisher } from './publish-session';
import type { RtmpConnection } from './rtmp-connection';
import { DEFAULT_RTMP_LIMITS, type RtmpServerLimits } from './rtmp-limits';

/** A publisher sends all the time; one silent this long is gone. */
const IDLE_MS = 30_000;

export interface RtmpServerOptions {
  listen: string;
  streams: StreamRegistry;
  tasks: TaskRegistry;
  logger: Logger;
  /** `rtsp.username`/`rtsp.password`: publishers log in with them (none: anyone may publish, as before). */
  login?: PublishLogin;
  /** `rtmp.allow_publish_over_sources`: a publisher may replace a stream's configured sources. */
  allowPublishOverSources?: boolean;
  /** Lowered by tests; the defaults say why they are what they are. */
  limits?: Partial<RtmpServerLimits>;
}

export interface RunningRtmpServer {
  port: number;
  /** Connections not yet publishing, and the bytes every open connection holds for its peer. */
  stats(): { pending: number; bufferedBytes: number };
  close(): Promise<void>;
}

/** The RTMP server on `rtmp.listen`: OBS, ffmpeg and cameras push a stream into the relay. */
export async function startRtmpServer(options: RtmpServerOptions): Promise<RunningRtmpServer> {
  const { host, port } = parseListen(options.listen);
  const limits = { ...DEFAULT_RTMP_LIMITS, ...options.limits };
  const { logger } = options;
  const connections = new Map<Socket, RtmpConnection>();
  let pending = 0;
  let saidFull = false;

  const accept = (socket: Socket) => {
    if (pending >= limits.maxPendingConnections) {
      // Closed before reading a byte: a flood of half-open connections costs nothing more.
      socket.destroy();
      if (!saidFull)
        logger.warn('RTMP connection refused: too many connections that have not published yet', { max: limits.maxPendingConnections });
      saidFull = true;
      return;
    }
    pending++;
    let waiting = true;
    const published = () => {
      if (!waiting) return;
      waiting = false;
      pending--;
      saidFull = false;
      clearTimeout(setupTimer);
    };
    const setupTimer = setTimeout(() => {
      logger.warn('RTMP connection closed: no publish within the time allowed', {
        remote: `${socket.remoteAddress}:${socket.remotePort}`,
        seconds: limits.setupTimeoutMs / 1000,
      });
      socket.destroy();
    }, limits.setupTimeoutMs);
    const untrack = options.tasks.add('socket', `RTMP connection from ${socket.remoteAddress}:${socket.remotePort}`);
    const connection = servePublisher(socket, {
      streams: options.streams,
      logger,
      login: options.login,
      allowPublishOverSources: options.allowPublishOverSources ?? false,
      maxMessageBytesBeforePublish: limits.maxMessageBytesBeforePublish,
      onPublishing: published,
    });
    connections.set(socket, connection);
    socket.setNoDelay(true);
    socket.setTimeout(IDLE_MS, () => socket.destroy());
    socket.on('error', () => undefined);
    socket.once('close', () => {
      published();
      connections.delete(socket);
      untrack();
    });
  };

  const server: Server = createServer(accept);
  const bound = await listen(server, port, host);
  return {
    port: bound,
    stats: () => ({ pending, bufferedBytes: [...connections.values()].reduce((sum, c) => sum + c.bufferedBytes, 0) }),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of connections.keys()) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
