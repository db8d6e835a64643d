import type { Socket } from 'node:net';
import type { Logger } from '@main/platform/logger';
import type { StreamRegistry } from '../../core/stream-registry';
import { RtmpMediaIntake } from './media-intake';
import { credentialsIn, loginRequired, sameLogin, withoutQuery, type PublishLogin } from './publish-login';
import { RtmpConnection, type RtmpCommand } from './rtmp-connection';
import { MEDIA_MESSAGE_BYTES } from './rtmp-limits';

const PUBLISH_STREAM_ID = 1;

/**
 * The stream a publisher means. OBS sends the server path as the app and the stream key as the
 * name (`rtmp://host/live` + key `garage`); ffmpeg's `rtmp://host:1935/garage` sends the name as
 * the app (go2rtc's reading). The first of name, app, app/name that is a stream wins.
 */
export function publishTarget(app: string, publishName: string, exists: (name: string) => boolean): string | undefined {
  const name = withoutQuery(publishName).replace(/^(mp4|flv):/, '');
  const bareApp = withoutQuery(app);
  return [name, bareApp, `${bareApp}/${name}`].find((candidate) => candidate !== '' && candidate !== '/' && exists(candidate));
}

export interface PublishSessionOptions {
  streams: StreamRegistry;
  logger: Logger;
  login?: PublishLogin;
  /** Let a publisher replace a stream that has sources in the config (`rtmp.allow_publish_over_sources`). */
  allowPublishOverSources: boolean;
  maxMessageBytesBeforePublish: number;
  /** The publisher was let in: from here it no longer counts as a connection waiting to log in. */
  onPublishing: () => void;
}

const status = (level: 'status' | 'error', code: string, description: string) => ({ level, code, description });

/**
 * One publisher's connection: connect → createStream → publish, then media until it leaves.
 * Returns the connection (its buffers are released when the socket closes).
 */
export function servePublisher(socket: Socket, options: PublishSessionOptions): RtmpConnection {
  const { streams, logger } = options;
  const remote = `${socket.remoteAddress}:${socket.remotePort}`;
  const needsLogin = loginRequired(options.login, socket.remoteAddress);
  let app = '';
  let loggedIn = false;
  /** Refused: commands still in flight (a client may send publish without waiting) are not read. */
  let refused = false;
  let intake: RtmpMediaIntake | undefined;
  const finish = (error?: Error) => {
    intake?.end(error);
    intake = undefined;
  };
  /** An RTMP-level refusal the client shows (ffmpeg prints the description), then the socket closes. */
  const refusePublish = (command: RtmpCommand, description: string) => {
    refused = true;
    connection.command('onStatus', 0, null, [status('error', 'NetStream.Publish.BadName', description)], command.streamId);
    socket.end();
  };
  const onConnect = (command: RtmpCommand) => {
    const object = command.object && typeof command.object === 'object' && !Array.isArray(command.object) ? command.object : {};
    app = typeof object.app === 'string' ? object.app.replace(/\/+(?=\?|$)/, '') : '';
    // ffmpeg's rtmp://host/garage?user=u&pass=p and OBS's server rtmp://host/live?user=u&pass=p
    // put the login in the app: checked here. Without one, it may still come in the stream key.
    const given = credentialsIn(app);
    if (needsLogin && given) {
      loggedIn = sameLogin(given, options.login!);
      if (!loggedIn) {
        logger.warn('RTMP connect refused: wrong login', { remote, app: withoutQuery(app) });
        refused = true;
        connection.command('_error', command.transaction, null, [
          status('error', 'NetConnection.Connect.Rejected', 'wrong user or pass for publishing (rtsp.username and rtsp.password)'),
        ]);
        socket.end();
        return;
      }
    }
    connection.sendBandwidth();
    connection.command('_result', command.transaction, { fmsVer: 'FMS/3,5,7,7009', capabilities: 31, mode: 1 }, [
      { ...status('status', 'NetConnection.Connect.Success', 'Connection succeeded.'), objectEncoding: 0 },
    ]);
  };
  const onPublish = (command: RtmpCommand) => {
    if (intake) return refusePublish(command, 'this connection publishes already');
    const publishName = typeof command.args[0] === 'string' ? command.args[0] : '';
    const asked = [withoutQuery(app), withoutQuery(publishName)].filter(Boolean).join('/');
    if (needsLogin && !loggedIn) {
      const given = credentialsIn(publishName);
      if (!given || !sameLogin(given, options.login!)) {
        logger.warn(`RTMP publish refused: ${given ? 'wrong login' : 'no login'}`, { remote, stream: asked });
        return refusePublish(
          command,
          given
            ? 'wrong user or pass for publishing (rtsp.username and rtsp.password)'
            : 'publishing needs the login of rtsp.username: add ?user=<user>&pass=<password> to the stream key or the URL (user:pass@ in the URL is not sent by ffmpeg or OBS)',
        );
      }
      loggedIn = true;
    }
    const target = publishTarget(app, publishName, (name) => streams.get(name) !== undefined);
    if (!target) {
      logger.warn('RTMP publish refused: no such stream', { remote, stream: asked });
      return refusePublish(command, `no stream ${asked} in the config: add it under streams: (it may have no sources)`);
    }
    const stream = streams.get(target)!;
    if (stream.sources.length > 0 && !options.allowPublishOverSources) {
      logger.warn('RTMP publish refused: the stream has sources in the config', { remote, stream: target });
      return refusePublish(
        command,
        `stream ${target} has sources in the config, and a publisher would replace them for new viewers: publish to a stream without sources, or set rtmp.allow_publish_over_sources: true`,
      );
    }
    options.onPublishing();
    connection.allowMessagesUpTo(MEDIA_MESSAGE_BYTES);
    connection.streamBegin(command.streamId);
    connection.command('onStatus', 0, null, [status('status', 'NetStream.Publish.Start', `${target} is now published.`)], command.streamId);
    intake = new RtmpMediaIntake({
      format_name: 'rtmp',
      protocol: 'rtmp',
      remote_addr: remote,
      url: `rtmp://${socket.localAddress}:${socket.localPort}/${target}`,
    });
    void intake.demuxed.ready.then(
      (producer) => stream.addPushed(`rtmp://${remote}/${target}`, producer.connection),
      (error: Error) => logger.warn('RTMP publish ended before any media', { remote, stream: target, error: error.message }),
    );
  };
  const onCommand = (command: RtmpCommand) => {
    if (refused) return;
    switch (command.name) {
      case 'connect':
        return onConnect(command);
      case 'releaseStream':
      case 'FCPublish':
        connection.command('_result', command.transaction, null, [null]);
        return;
      case 'createStream':
        connection.command('_result', command.transaction, null, [PUBLISH_STREAM_ID]);
        return;
      case 'publish':
        return onPublish(command);
      case 'FCUnpublish':
      case 'deleteStream':
      case 'closeStream':
        finish();
        return;
      case 'play':
        refused = true;
        connection.command(
          'onStatus',
          0,
          null,
          [
            status(
              'error',
              'NetStream.Play.Failed',
              'this RTMP server takes publishers; play the stream over RTSP, HLS, WebRTC or stream.flv',
            ),
          ],
          command.streamId,
        );
        socket.end();
        return;
      default:
        // getStreamLength, _checkbw and the like: answered empty so clients go on.
        if (command.transaction > 0) connection.command('_result', command.transaction, null, [null]);
    }
  };
  const connection = new RtmpConnection(
    socket,
    'server',
    {
      command: onCommand,
      data: (message) => intake?.data(message),
      media: (message) => intake?.media(message),
      error: (error) => {
        logger.warn('RTMP connection failed', { remote, error: error.message });
        finish(error);
      },
    },
    options.maxMessageBytesBeforePublish,
  );
  socket.once('close', () => finish());
  return connection;
}
