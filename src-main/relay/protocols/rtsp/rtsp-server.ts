import { createServer, type Server, type Socket } from 'node:net';
import { listen } from '@main/platform/listen';
import { isLoopbackAddress } from '@main/platform/http/request-guard';
import { createRepeatFilter } from '@main/platform/repeat-filter';
import type { ProducerConnection } from '../../core/producer';
import { createDigestNonces } from './digest-nonces';
import { RtspServerSession, type RtspServerOptions, type RtspServerShared } from './rtsp-server-session';
import { loadRelayNative } from '../../native/native-addon';
import { createSocketWriter } from './socket-writer';
import { createViewerWrites } from './viewer-writes';

export type { RtspServerOptions } from './rtsp-server-session';

export interface RunningRtspServer {
  readonly port: number;
  readonly server: Server;
  /**
   * Waits for a publisher (an ffmpeg or exec: child) to ANNOUNCE at `rtsp://127.0.0.1:<port>/<path>`;
   * such a publish does not need a declared stream and never shows in the stream list.
   */
  expectPublish(path: string, timeoutMs: number): Promise<ProducerConnection>;
  close(): Promise<void>;
}

const VIEWER_SOCKET_BUFFER = 512 * 1024;

/**
 * The relay's RTSP server: PLAY of any stream at rtsp://host:port/<name> (TCP interleaved or
 * UDP unicast) and publishing into a stream with ANNOUNCE/RECORD (TCP interleaved). Each
 * connection is an RtspServerSession; this keeps what they share and the listening socket.
 */
export async function startRtspServer(options: RtspServerOptions): Promise<RunningRtspServer> {
  const { logger, tasks } = options;
  const sockets = new Set<Socket>();
  const shared: RtspServerShared = {
    options,
    expected: new Map(),
    refusals: createRepeatFilter(),
    nonces: createDigestNonces(),
    // Pictures straight into the kernel where the native addon is there (socket-writer.ts).
    writes: createViewerWrites({ write: createSocketWriter(loadRelayNative()) }),
    requireAuth: (socket) =>
      !!options.username && (!!options.localAuth || !isLoopbackAddress(socket.remoteAddress?.replace(/^::ffff:/, '') ?? '')),
    realm: 'Relay Console',
  };

  // A keyframe of a 4K camera is several hundred kilobytes: a viewer's socket takes it whole
  // within one turn instead of pausing its sender at Node's 16 KiB default.
  const server = createServer({ highWaterMark: VIEWER_SOCKET_BUFFER }, (socket) => {
    sockets.add(socket);
    new RtspServerSession(shared, socket, () => sockets.delete(socket));
  });

  const port = await listen(server, options.port, options.host);
  const untrackServer = tasks.add('server', `rtsp ${options.host}:${port}`);
  logger.info('RTSP listening', { host: options.host, port });

  return {
    port,
    server,
    expectPublish: (path, timeoutMs) =>
      new Promise<ProducerConnection>((resolve, reject) => {
        const timer = setTimeout(() => {
          shared.expected.delete(path);
          reject(new Error(`no publish within ${timeoutMs / 1000} s`));
        }, timeoutMs);
        shared.expected.set(path, (connection) => {
          clearTimeout(timer);
          resolve(connection);
        });
      }),
    close: () =>
      new Promise<void>((resolve) => {
        untrackServer();
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      }),
  };
}
