import type { Consumer } from '../../core/consumer';
import type { Codec } from '../../core/media';
import type { TrackMatch } from '../../core/negotiation';
import type { ConnectionInfo } from '../../core/producer';
import { serializeRtpPacket } from '../../core/rtp-packet';
import type { Stream } from '../../core/stream';
import type { TaskRegistry } from '../../core/task-registry';
import type { PacketSink, Track } from '../../core/track';
import { RtspConnection } from './rtsp-connection';
import { buildSdp } from './sdp';

/** Sends a stream to another RTSP server with ANNOUNCE/SETUP/RECORD (POST /api/streams?src=&dst=rtsp://). */
class PushConsumer implements Consumer {
  readonly requests = [
    { kind: 'video' as const, codecs: ['ANY'] },
    { kind: 'audio' as const, codecs: ['ANY'] },
  ];
  readonly tracks: Array<{ track: Track; codec: Codec }> = [];
  private recording = false;
  private readonly waiting: Array<() => void> = [];
  connection?: RtspConnection;

  constructor(private readonly destination: string) {}

  attach(track: Track, match: TrackMatch): PacketSink {
    const channel = this.tracks.length * 2;
    this.tracks.push({ track, codec: match.codec });
    return {
      write: (packet) => (this.recording && this.connection ? this.connection.sendFrame(channel, serializeRtpPacket(packet)) : false),
      onDrain: (callback) => {
        if (this.recording && this.connection) this.connection.onDrain(callback);
        else this.waiting.push(callback);
      },
    };
  }

  startRecording(connection: RtspConnection): void {
    this.connection = connection;
    this.recording = true;
    for (const callback of this.waiting.splice(0)) callback();
  }

  info(): ConnectionInfo {
    return {
      format_name: 'rtsp',
      protocol: 'rtsp+tcp',
      remote_addr: this.connection?.remote ?? '',
      url: this.destination,
      medias: this.tracks.map(({ track, codec }) => `${track.media.kind}, sendonly, ${codec.name}`),
      bytes_send: this.connection?.bytesSent ?? 0,
    };
  }

  close(): void {
    this.connection?.finish();
  }
}

export async function pushToRtsp(stream: Stream, destination: string, tasks: TaskRegistry): Promise<void> {
  const consumer = new PushConsumer(destination);
  await stream.addConsumer(consumer);
  let connection: RtspConnection;
  try {
    connection = await RtspConnection.open(destination);
    const base = connection.base;
    const sdp = buildSdp(
      consumer.tracks.map(({ track, codec }) => ({ kind: track.media.kind, codec })),
      { sessionName: stream.name },
    );
    await connection.request('ANNOUNCE', base, { 'Content-Type': 'application/sdp' }, sdp);
    for (const [index] of consumer.tracks.entries()) {
      await connection.request('SETUP', `${base.replace(/\/$/, '')}/trackID=${index}`, {
        Transport: `RTP/AVP/TCP;unicast;interleaved=${index * 2}-${index * 2 + 1};mode=record`,
      });
    }
    await connection.request('RECORD', base, { Range: 'npt=0.000-' });
  } catch (error) {
    stream.removeConsumer(consumer);
    consumer.close();
    throw error;
  }
  const untrack = tasks.add('consumer', `push ${stream.name} → ${connection.base}`);
  connection.onClose(() => {
    untrack();
    stream.removeConsumer(consumer);
  });
  consumer.startRecording(connection);
}
