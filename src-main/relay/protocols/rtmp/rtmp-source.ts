import { connect } from 'node:net';
import type { ProducerConnection } from '../../core/producer';
import { stoppingWith } from '../../media/frames/demuxed-producer';
import type { AmfValue } from './amf0';
import { RtmpMediaIntake } from './media-intake';
import { MSG, RtmpConnection, type RtmpCommand } from './rtmp-connection';

const DIAL_TIMEOUT_MS = 10_000;

/** `rtmp://host[:port]/app/playpath[?query]`: app is the first path part, the rest (and query) the stream, as ffmpeg splits it. */
function parseRtmpUrl(source: string): { host: string; port: number; app: string; playpath: string; tcUrl: string } {
  const url = new URL(source);
  const [app = '', ...rest] = url.pathname.replace(/^\/+/, '').split('/');
  if (!url.hostname || !app) throw new Error(`${url.protocol}//${url.host}${url.pathname}: expected rtmp://host[:port]/app/stream`);
  const port = Number(url.port || 1935);
  const playpath = `${rest.join('/')}${url.search}`;
  return { host: url.hostname, port, app, playpath: playpath || app, tcUrl: `rtmp://${url.host}/${app}` };
}

const statusOf = (args: AmfValue[]) => {
  const info = args.find((a) => a && typeof a === 'object' && !Array.isArray(a)) as Record<string, AmfValue> | undefined;
  return { level: String(info?.level ?? ''), code: String(info?.code ?? ''), description: String(info?.description ?? '') };
};

/** Plays one stream from an RTMP server (nginx-rtmp, a Reolink camera, ffmpeg -listen 1). */
export async function dialRtmp(source: string, signal: AbortSignal): Promise<ProducerConnection> {
  const target = parseRtmpUrl(source);
  const socket = connect({ host: target.host, port: target.port });
  socket.setNoDelay(true);
  // A server that stops sending ends the source (the stream dials again), as the RTSP client's watchdog does.
  socket.setTimeout(DIAL_TIMEOUT_MS, () =>
    socket.destroy(new Error(`RTMP ${target.host}:${target.port} sent nothing for ${DIAL_TIMEOUT_MS / 1000} s`)),
  );
  const intake = new RtmpMediaIntake({
    format_name: 'rtmp',
    protocol: 'rtmp',
    remote_addr: `${target.host}:${target.port}`,
    url: source.replace(/\/\/[^@/]*@/, '//'),
  });
  let fail!: (error: Error) => void;
  const failed = new Promise<never>((_, reject) => (fail = reject));
  failed.catch(() => undefined);
  const stop = () => socket.destroy();
  const onCommand = (command: RtmpCommand) => {
    if (command.name === '_result' && command.transaction === 1) {
      connection.command('createStream', 2, null);
    } else if (command.name === '_result' && command.transaction === 2) {
      const streamId = typeof command.args[0] === 'number' ? command.args[0] : 1;
      connection.command('play', 0, null, [target.playpath, -2000], streamId);
      // SetBufferLength (3): how much the server may send ahead, 3 s as players ask.
      const buffer = Buffer.alloc(10);
      buffer.writeUInt16BE(3, 0);
      buffer.writeUInt32BE(streamId, 2);
      buffer.writeUInt32BE(3000, 6);
      connection.send(2, MSG.USER_CONTROL, 0, 0, buffer);
    } else if (command.name === '_error' || (command.name === 'onStatus' && statusOf(command.args).level === 'error')) {
      const { code, description } = statusOf(command.args);
      fail(new Error(`RTMP ${target.host}: ${[code, description].filter(Boolean).join(': ') || 'the server refused'}`));
    }
  };
  const connection = new RtmpConnection(socket, 'client', {
    command: onCommand,
    data: (message) => intake.data(message),
    media: (message) => intake.media(message),
    error: (error) => fail(error),
  });
  socket.once('error', (error) => fail(new Error(`RTMP ${target.host}:${target.port}: ${error.message}`)));
  socket.once('close', () => {
    fail(new Error(`RTMP ${target.host}:${target.port} closed the connection`));
    intake.end();
  });
  signal.addEventListener('abort', stop, { once: true });
  const timer = setTimeout(
    () => fail(new Error(`RTMP ${target.host}:${target.port}: no media within ${DIAL_TIMEOUT_MS / 1000} s`)),
    DIAL_TIMEOUT_MS,
  );
  try {
    await Promise.race([connection.ready, failed]);
    connection.command('connect', 1, {
      app: target.app,
      flashVer: 'LNX 9,0,124,2',
      tcUrl: target.tcUrl,
      fpad: false,
      capabilities: 15,
      audioCodecs: 4071,
      videoCodecs: 252,
      videoFunction: 1,
    });
    const producer = await Promise.race([intake.demuxed.ready, failed]);
    return stoppingWith(producer.connection, stop);
  } catch (error) {
    socket.destroy();
    intake.end(error as Error);
    throw error;
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', stop);
  }
}
