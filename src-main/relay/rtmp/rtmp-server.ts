import { createServer, type Server, type Socket } from 'node:net';
import { parseListen } from '../../platform/config/app-settings';
import { listen } from '../../platform/listen';
import type { Logger } from '../../platform/logger';
import type { StreamRegistry } from '../core/stream-registry';
import type { TaskRegistry } from '../core/task-registry';
import { RtmpMediaIntake } from './media-intake';
import { RtmpConnection, type RtmpCommand } from './rtmp-connection';

const PUBLISH_STREAM_ID = 1;
const IDLE_MS = 30_000;

export interface RunningRtmpServer {
  port: number;
  close(): Promise<void>;
}

/**
 * The stream a publisher means. OBS sends the server path as the app and the stream key as the
 * name (`rtmp://host/live` + key `garage`); ffmpeg's `rtmp://host:1935/garage` sends the name as
 * the app (go2rtc's reading). The first of name, app, app/name that is a stream wins.
 */
export function publishTarget(app: string, publishName: string, exists: (name: string) => boolean): string | undefined {
  const name = publishName.replace(/\?.*$/, '').replace(/^(mp4|flv):/, '');
  const bareApp = app.replace(/\?.*$/, '');
  return [name, bareApp, `${bareApp}/${name}`].find((candidate) => candidate !== '' && candidate !== '/' && exists(candidate));
}

const status = (level: 'status' | 'error', code: string, description: string) => ({ level, code, description });

/** One publisher's connection: connect → createStream → publish, then media until it leaves. */
function servePublisher(socket: Socket, streams: StreamRegistry, tasks: TaskRegistry, logger: Logger): void {
  const remote = `${socket.remoteAddress}:${socket.remotePort}`;
  const untrack = tasks.add('socket', `RTMP connection from ${remote}`);
  let app = '';
  let intake: RtmpMediaIntake | undefined;
  const finish = (error?: Error) => {
    intake?.end(error);
    intake = undefined;
  };
  const onCommand = (command: RtmpCommand) => {
    switch (command.name) {
      case 'connect': {
        const object = command.object && typeof command.object === 'object' && !Array.isArray(command.object) ? command.object : {};
        app = typeof object.app === 'string' ? object.app.replace(/\/+$/, '') : '';
        connection.sendBandwidth();
        connection.command('_result', command.transaction, { fmsVer: 'FMS/3,5,7,7009', capabilities: 31, mode: 1 }, [
          { ...status('status', 'NetConnection.Connect.Success', 'Connection succeeded.'), objectEncoding: 0 },
        ]);
        return;
      }
      case 'releaseStream':
      case 'FCPublish':
        connection.command('_result', command.transaction, null, [null]);
        return;
      case 'createStream':
        connection.command('_result', command.transaction, null, [PUBLISH_STREAM_ID]);
        return;
      case 'publish': {
        const publishName = typeof command.args[0] === 'string' ? command.args[0] : '';
        const target = publishTarget(app, publishName, (name) => streams.get(name) !== undefined);
        if (!target) {
          const asked = [app, publishName].filter(Boolean).join('/');
          logger.warn('RTMP publish refused: no such stream', { remote, stream: asked });
          connection.command('onStatus', 0, null, [status('error', 'NetStream.Publish.BadName', `no stream ${asked} in the config: add it under streams: (it may have no sources)`)], command.streamId);
          socket.end();
          return;
        }
        connection.streamBegin(command.streamId);
        connection.command('onStatus', 0, null, [status('status', 'NetStream.Publish.Start', `${target} is now published.`)], command.streamId);
        intake = new RtmpMediaIntake({ format_name: 'rtmp', protocol: 'rtmp', remote_addr: remote, url: `rtmp://${socket.localAddress}:${socket.localPort}/${target}` });
        const stream = streams.get(target)!;
        void intake.demuxed.ready.then(
          (producer) => stream.addPushed(`rtmp://${remote}/${target}`, producer.connection),
          (error: Error) => logger.warn('RTMP publish ended before any media', { remote, stream: target, error: error.message }),
        );
        return;
      }
      case 'FCUnpublish':
      case 'deleteStream':
      case 'closeStream':
        finish();
        return;
      case 'play':
        connection.command('onStatus', 0, null, [status('error', 'NetStream.Play.Failed', 'this RTMP server takes publishers; play the stream over RTSP, HLS, WebRTC or stream.flv')], command.streamId);
        socket.end();
        return;
      default:
        // getStreamLength, _checkbw and the like: answered empty so clients go on.
        if (command.transaction > 0) connection.command('_result', command.transaction, null, [null]);
    }
  };
  const connection = new RtmpConnection(socket, 'server', {
    command: onCommand,
    data: (message) => intake?.data(message),
    media: (message) => intake?.media(message),
    error: (error) => {
      logger.warn('RTMP connection failed', { remote, error: error.message });
      finish(error);
    },
  });
  socket.setNoDelay(true);
  // A publisher sends all the time; one silent this long (or stuck in the handshake) is gone.
  socket.setTimeout(IDLE_MS, () => socket.destroy());
  socket.on('error', () => undefined);
  socket.once('close', () => {
    finish();
    untrack();
  });
}

/** The RTMP server on `rtmp.listen`: OBS, ffmpeg and cameras push a stream into the relay. */
export async function startRtmpServer(options: { listen: string; streams: StreamRegistry; tasks: TaskRegistry; logger: Logger }): Promise<RunningRtmpServer> {
  const { host, port } = parseListen(options.listen);
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    servePublisher(socket, options.streams, options.tasks, options.logger);
  });
  const bound = await listen(server, port, host);
  return {
    port: bound,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
